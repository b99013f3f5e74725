package io.sluice.core.internal.failure;

import io.sluice.core.Causes;
import io.sluice.core.ErrorWords;
import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.commit.CommitPoint;
import io.sluice.core.commit.RefusedAfterUnknownTry;
import io.sluice.core.commit.SourceGroup;
import io.sluice.core.crash.CrashPoints;
import io.sluice.producer.ProducerSettings;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The source group's offset commit, with the dead letters of the committed records in it: a commit that carries
 * letters ({@link PendingDeadLetters#takeBelow}) is a transaction in the source cluster that sends them and commits
 * the offsets through {@code sendOffsetsToTransaction(offsets, groupMetadata)}, so a read_committed reader of the
 * dead-letter topic sees a letter exactly when its record's offset is committed; a commit without letters is the plain
 * offset commit, as without this class.
 *
 * <p>Fencing (KIP-447): the group coordinator checks the transactional offset commit against the member's
 * generation, as it checks a plain commit, so a member that lost its partitions can never commit their offsets, nor
 * therefore their letters: its transaction aborts. That is why one transactional ID per engine instance is enough:
 * the ID does not fence anyone, the generation does. The next owner's claim reads the offsets with a read_committed
 * consumer, which waits for a transactional offset commit still open (require_stable) rather than read past it. An
 * instance that died mid-commit leaves its transaction open until the coordinator aborts it, {@link
 * #TRANSACTION_TIMEOUT} later (plus up to its check interval, {@code
 * transaction.abort.timed.out.transaction.cleanup.interval.ms}, 10 s by default); meanwhile the claim waits, and
 * read_committed readers of the dead-letter topic see nothing beyond it. A static member ({@code group.instance.id})
 * has an ID of its own that outlives restarts, so its restart ends that transaction at once instead: {@link #claim}
 * initializes the ID before it reads, which aborts what the dead incarnation left open. Two live members never share
 * it: the coordinator lets one member per instance ID in.
 *
 * <p>Outcomes: an error before {@code commitTransaction}, or one from it other than a timeout, means the transaction
 * did not commit (the ID is this instance's alone, so only the coordinator's timeout can have ended it otherwise, by
 * aborting it): the letters go back to the pending list and the commit counts as refused for certain. A timeout leaves
 * the outcome unknown, as a plain commit's: the letters went with the offsets. The next commit first retries
 * {@code commitTransaction} to learn the outcome (commits must land in order), and is not sent until it is known.
 *
 * <p>Threading: the engine's consumer thread only, as the commit point it wraps; workers reach the pending list only.
 */
public final class DeadLettersInCommit implements CommitPoint {

    /**
     * How long a transaction may stay open: it lives only during a commit (begin, sends, offsets, commit), so a
     * crash mid-commit blocks the next owner's offset fetch at most this long (plus the coordinator's check interval).
     */
    public static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(10);
    /** How long a claim waits for an earlier owner's open transaction to be aborted: the timeout, the check, margin. */
    static final Duration OPEN_TRANSACTION_WAIT = TRANSACTION_TIMEOUT.multipliedBy(3);

    private final CommitPoint offsets;
    private final SourceGroup group;
    private final PendingDeadLetters pending;
    private final Map<String, Object> producerProperties;
    /** Whether the transactional ID outlives this instance (a static member's): then a claim ends what it left open. */
    private final boolean lastingId;
    /** How long a final commit with letters retries while the brokers are away: the dead-letter retry window. */
    private final Duration retryFor;
    private KafkaProducer<byte[], byte[]> producer;
    /** The letters of a transaction whose commit timed out: visible exactly when its offsets are. */
    private PendingDeadLetters.Batch inDoubt;

    /**
     * @param offsets            the source group's offset commit, for commits without letters
     * @param clientProperties   connection to the source cluster, where the dead-letter topic is
     * @param groupInstanceId    the member's {@code group.instance.id}, or null for a dynamic member
     * @param retryFor           how long a final commit that carries letters retries while the brokers are away
     *                           ({@code processing.dead-letter-retry-for})
     */
    public DeadLettersInCommit(CommitPoint offsets, SourceGroup group, PendingDeadLetters pending,
            Map<String, Object> clientProperties, String groupInstanceId, Duration retryFor) {
        this.offsets = offsets;
        this.retryFor = retryFor;
        this.lastingId = groupInstanceId != null;
        this.group = group;
        this.pending = pending;
        int timeout = (int) TRANSACTION_TIMEOUT.toMillis();
        this.producerProperties = ProducerSettings.on(clientProperties)
                .setIfAbsent(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeout)
                .setIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout)
                .setIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout / 2)
                .setIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout)
                .set(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sluice-dead-letters-" + group.groupId() + "-"
                        + (lastingId ? "member-" + groupInstanceId : UUID.randomUUID().toString()))
                .set(ProducerConfig.CLIENT_ID_CONFIG, "sluice-dead-letter-tx")
                .build().properties();
    }

    @Override
    public String describe() {
        return offsets.describe() + " (with its dead letters in a transaction)";
    }

    /**
     * Letters held for these partitions are of an earlier ownership: whoever owned them since decided their fate. The
     * offsets are read once no transaction of an earlier owner holds them open (see the class comment).
     */
    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        pending.drop(partitions);
        if (lastingId && inDoubt == null) {
            try {
                producer(); // initializing the ID aborts what this member's earlier incarnation left open
            } catch (RuntimeException e) {
                LOG.warn("cannot initialize the dead letters' transactional ID yet ({}); an open transaction of an "
                        + "earlier incarnation ends by its timeout instead", ErrorWords.of(e));
            }
        }
        long deadline = System.nanoTime() + OPEN_TRANSACTION_WAIT.toNanos();
        while (true) {
            try {
                return offsets.claim(partitions, timeout);
            } catch (TimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                LOG.info("reading the committed offsets of {} waits for an earlier owner's open transaction to end "
                        + "(at most {} after it began): {}", partitions, TRANSACTION_TIMEOUT, ErrorWords.of(e));
            }
        }
    }

    /** With letters, the transaction runs here, on the consumer thread, and {@code outcome} hears it at once. */
    @Override
    public void commit(Map<TopicPartition, OffsetAndMetadata> commit, Outcome outcome) {
        Exception error = null;
        try {
            if (!transact(commit, TRANSACTION_TIMEOUT)) {
                offsets.commit(commit, outcome);
                return;
            }
        } catch (RuntimeException e) {
            error = e;
        }
        outcome.completed(commit, error);
    }

    /**
     * On revoke and close. A commit that carries letters rides out a broker outage for up to the dead-letter retry
     * window, as a letter published at once would: its records count as done, so a bounded run can reach its end
     * while the brokers are away, and only this commit makes them true.
     */
    @Override
    public void commitNow(Map<TopicPartition, OffsetAndMetadata> commit, Duration timeout) {
        long deadline = System.nanoTime() + retryFor.toNanos();
        boolean unknown = false; // whether a try of this commit may have landed: a later refusal is then not certain
        while (true) {
            try {
                if (!transact(commit, timeout)) {
                    offsets.commitNow(commit, timeout);
                }
                return;
            } catch (RuntimeException e) {
                if (!brokersAway(e) || System.nanoTime() - deadline > 0 || pending.size() == 0 && inDoubt == null) {
                    throw unknown && refusedForCertain(e) ? new RefusedAfterUnknownTry(e) : e;
                }
                unknown = true;
                LOG.info("the commit of {} with its dead letters waits for the brokers ({}); it tries again for up to"
                        + " {} s in all", commit.keySet(), e.getMessage() == null ? "no detail given" : e.getMessage(),
                        retryFor.toSeconds());
                try {
                    Thread.sleep(500);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    /** A timeout or a missing coordinator, not a refusal: the same commit may succeed once the brokers are back. */
    private boolean brokersAway(Throwable error) {
        for (Throwable t : Causes.of(error)) {
            if (t instanceof Exception e && offsets.refusedForCertain(e)) {
                return false;
            }
            if (t instanceof org.apache.kafka.common.errors.RetriableException) {
                return true;
            }
        }
        return false;
    }

    /** Runs the commit as a transaction if it carries letters; false if it carries none (the plain commit's turn). */
    private boolean transact(Map<TopicPartition, OffsetAndMetadata> commit, Duration timeout) {
        resolveInDoubt();
        PendingDeadLetters.Batch letters = pending.takeBelow(commit);
        if (letters.isEmpty()) {
            return false;
        }
        ConsumerGroupMetadata member;
        try {
            offsets.settleInFlight(timeout); // plain commits sent before this one land first
            member = group.groupMetadata();
            if (member.generationId() < 0 || member.memberId().isEmpty()) {
                // a consumer that left the group (its poll interval passed) forgets its generation, and the
                // coordinator does not check a transactional offset commit without one: only a plain commit fences it
                throw new IllegalGenerationException("this member is not in group '" + group.groupId() + "' now");
            }
            producer().beginTransaction();
        } catch (RuntimeException e) {
            pending.restore(letters);
            throw new NotCommittedException("cannot begin the dead letters' transaction", e);
        }
        try {
            // a failed send fails commitTransaction, which flushes them all first
            letters.records().forEach(producer::send);
            CrashPoints.reach(CrashPoints.DEAD_LETTER_AFTER_SEND);
            producer.sendOffsetsToTransaction(commit, member);
            CrashPoints.reach(CrashPoints.DEAD_LETTER_BEFORE_COMMIT);
        } catch (RuntimeException e) {
            abort(letters);
            throw new NotCommittedException("the dead letters' transaction failed before its commit", e);
        }
        try {
            producer.commitTransaction();
            return true;
        } catch (TimeoutException | InterruptException e) {
            inDoubt = letters;
            throw e;
        } catch (KafkaException e) {
            abort(letters);
            throw new NotCommittedException("the dead letters' transaction did not commit", e);
        }
    }

    /**
     * Learns what became of a transaction whose commit timed out, by retrying the commit (the client allows nothing
     * else): committed, the letters are published; failed otherwise, they go back to the pending list.
     *
     * @throws NotCommittedException if it is still unknown: the commit at hand is not sent, as it could land before
     *                               the one in doubt
     */
    private void resolveInDoubt() {
        if (inDoubt == null) {
            return;
        }
        try {
            producer.commitTransaction();
            inDoubt = null;
        } catch (TimeoutException | InterruptException e) {
            throw new NotCommittedException("an earlier transaction with dead letters is still in doubt", e);
        } catch (KafkaException e) {
            PendingDeadLetters.Batch letters = inDoubt;
            inDoubt = null;
            abort(letters);
        }
    }

    /** The transaction did not commit: its letters wait for the next one; a producer in a fatal state is replaced. */
    private void abort(PendingDeadLetters.Batch letters) {
        pending.restore(letters);
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            LOG.debug("aborting the dead letters' transaction ({}); a new producer takes over", e.toString());
            closeProducer(Duration.ZERO);
        }
    }

    private KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            KafkaProducer<byte[], byte[]> made =
                    new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
            try {
                made.initTransactions();
            } catch (RuntimeException e) {
                made.close(Duration.ZERO);
                throw e;
            }
            producer = made;
        }
        return producer;
    }

    private void closeProducer(Duration timeout) {
        if (producer != null) {
            producer.close(timeout);
            producer = null;
        }
    }

    /** The source group's own refusals, and every commit this class knows did not happen. */
    @Override
    public boolean refusedForCertain(Exception error) {
        return error instanceof NotCommittedException || offsets.refusedForCertain(error);
    }

    @Override
    public void settleInFlight(Duration timeout) {
        offsets.settleInFlight(timeout);
    }

    /** Dead letters carry no progress: it is where the wrapped commit point keeps it. */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> partitions) {
        return offsets.committedProgress(partitions);
    }

    /** Letters of released partitions go with them: after a revoke the final commit took those it covered. */
    @Override
    public void release(Collection<TopicPartition> partitions, boolean lost) {
        pending.drop(partitions);
        if (inDoubt != null) {
            inDoubt = inDoubt.without(partitions);
        }
        offsets.release(partitions, lost);
    }

    @Override
    public void abandon() {
        offsets.abandon();
    }

    @Override
    public void close() {
        if (inDoubt != null) {
            try {
                resolveInDoubt();
            } catch (RuntimeException e) {
                LOG.warn("closing with a dead letters' transaction in doubt: its letters are visible exactly when "
                        + "its offsets are committed ({})", ErrorWords.of(e));
            }
        }
        closeProducer(Duration.ofSeconds(5));
        offsets.close();
    }

    /** A commit that certainly did not take effect, nor did its letters. */
    static final class NotCommittedException extends KafkaException {
        private static final long serialVersionUID = 1L;

        NotCommittedException(String what, Throwable cause) {
            super(what + ": " + (cause.getMessage() == null ? "no detail given" : cause.getMessage()), cause);
        }
    }
}
