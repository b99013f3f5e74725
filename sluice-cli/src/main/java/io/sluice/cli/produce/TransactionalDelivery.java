package io.sluice.cli.produce;

import io.sluice.cli.RunFailure;
import io.sluice.core.Causes;
import io.sluice.core.ErrorWords;
import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.FileIdentity;
import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.Input;
import io.sluice.producer.input.InputReading;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import io.sluice.producer.DeliveryJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An exactly-once import of files, through the engine's commit point for target clusters
 * ({@link TargetTransactionCommit}): the import is one "source partition" to it, named after the import, whose
 * position (an {@link ImportPosition}: byte offset, and the file, line and file identity as metadata) is committed in
 * the same transaction as the records read up to it, every commit interval and at the end. Its claim fences any
 * earlier run of the same import (a process killed or frozen), aborts what that run left open, and reads the
 * committed position, so a rerun goes on after the last committed line: every line once for a read_committed reader.
 *
 * <p>A record counts as acknowledged only when its transaction commits ({@link PendingOutcomes}); a commit that fails
 * ends the import, since the records in the aborted transaction cannot be taken back: the rerun goes on from the
 * last commit.
 *
 * <p>Threading: see {@link Delivery}; the commit point is used by one thread at a time (claimed on the command's
 * thread, committed on the reading thread, finished on the command's thread).
 */
final class TransactionalDelivery implements Delivery {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.produce");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final TargetTransactionCommit commit;
    private final TopicPartition source;
    private final String topic;
    private final String name;
    private final List<Input> inputs;
    private final DeliveryTally tally;
    private final long intervalNanos;
    private final PendingOutcomes pending;
    private final TargetTransactionCommit.Sender sender;
    private ImportPosition position;
    private ImportPosition committed;
    /** The position of a commit sent whose outcome is unknown (it may have landed), or null. */
    private ImportPosition unknownCommit;
    private long lastCommit = System.nanoTime();
    private RuntimeException failure;
    /**
     * Where each line that failed is written with why, or null: the summary names the first ten, and no run could say
     * which the others were (the lines committed are in the topic, and the position says how far; a review).
     */
    private final DeliveryJournal failures;

    private TransactionalDelivery(TargetTransactionCommit commit, TopicPartition source, String topic, String name,
            List<Input> inputs, DeliveryTally tally, Duration interval, ImportPosition start,
            DeliveryJournal failures) {
        this.failures = failures;
        this.commit = commit;
        this.source = source;
        this.topic = topic;
        this.name = name;
        this.inputs = inputs;
        this.tally = tally;
        this.pending = new PendingOutcomes(tally);
        this.intervalNanos = interval.toNanos();
        this.position = start;
        this.committed = start;
        this.sender = commit.sender(source);
    }

    /**
     * Claims import {@code name} (fencing earlier runs of it) and reads where it stands.
     *
     * @throws RunFailure when the committed position does not fit these inputs, or the target cannot be claimed
     */
    static TransactionalDelivery claim(Map<String, Object> producerProperties, String topic, String name,
            List<Input> inputs, DeliveryTally tally, Duration interval, DeliveryJournal failures) throws RunFailure {
        Map<String, Object> props = new HashMap<>(producerProperties);
        // the commit point sets these itself (always acks=all and idempotence, one transactional ID per import)
        props.remove(ProducerConfig.ACKS_CONFIG);
        props.remove(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG);
        props.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
        TargetTransactionCommit commit;
        try {
            commit = TargetTransactionCommit.builder()
                    .producerProperties(props)
                    .transactionalIdPrefix("sluice-produce")
                    .progressGroup(ProduceCommand.PROGRESS_GROUP_PREFIX + name)
                    // the progress is kept under a partition the target has: its coordinator refuses unknown topics
                    .progressPartition(input -> new TopicPartition(topic, 0))
                    .build();
        } catch (RuntimeException e) {
            if (failures != null) {
                failures.close();
            }
            throw e;
        }
        TopicPartition source = new TopicPartition(name, 0);
        try {
            OffsetAndMetadata last = commit.claim(Set.of(source), TIMEOUT).get(source);
            ImportPosition start = last == null ? ImportPosition.startOf(0, FileIdentity.of(inputs.get(0).path()))
                    : ImportPosition.resume(last.offset(), last.metadata(), inputs, name);
            return new TransactionalDelivery(commit, source, topic, name, inputs, tally, interval, start, failures);
        } catch (IllegalStateException e) {
            close(commit, failures);
            throw new RunFailure(e.getMessage(), e);
        } catch (IOException e) {
            close(commit, failures);
            throw new RunFailure("cannot read " + e.getMessage(), e);
        } catch (KafkaException e) {
            close(commit, failures);
            throw new RunFailure("cannot claim import " + name + " in the target cluster: " + e.getMessage(), e);
        }
    }

    /** A change to the last file of a complete import, found at the start: not sent. */
    private Optional<String> unsentChange = Optional.empty();

    @Override
    public ImportPosition start() {
        if (position.isComplete(inputs)) {
            LOG.info("import {} is complete already: nothing to send", name);
            // said in the summary with exit status 1: said only in the log, the run ended 0 and a `&& mv` moved it (a
            // review)
            unsentChange = lastFileChanged().map(now -> {
                Input last = inputs.get(inputs.size() - 1);
                long then = position.identity().size();
                String changed = String.format(java.util.Locale.ROOT, "%s changed since import %s read it to its end "
                        + "(%,d bytes then, %,d now)", last.name(), name, then, now.size());
                // the hint only for a file that grew: one cut short or rewritten (an edit, copytruncate) has no tail
                // that is only the new lines (a review)
                return now.size() > then
                        ? String.format(java.util.Locale.ROOT, "%s: what it gained is not sent, since a complete import "
                                + "is done (a file added to the folder or pattern is sent). If lines were appended to "
                                + "it, send them alone: tail -c +%d %s | sluice produce ...; a new --name sends every "
                                + "file again", changed, then + 1, last.name())
                        : changed + ": it was cut short or rewritten, and nothing of it is sent again, since a complete "
                                + "import is done; a new --name sends every file again";
            });
        } else if (position.offset() > 0 || position.file() > 0) {
            LOG.info("import {}: going on from {}:{} (byte {}), as last committed", name,
                    inputs.get(position.file()).name(), position.line(), position.offset());
        } else {
            LOG.info("import {}: {} file(s) into {}, exactly once", name, inputs.size(), topic);
        }
        return position;
    }

    @Override
    public Optional<String> unsentChange() {
        return unsentChange;
    }

    /**
     * The last file's identity now, if it differs from when the import read it to its end: a rerun of a complete import
     * sent nothing without a word, though lines had been appended to it.
     */
    private Optional<FileIdentity> lastFileChanged() {
        FileIdentity then = position.identity();
        if (then == null || inputs.isEmpty() || inputs.get(inputs.size() - 1).isStdin()) {
            return Optional.empty();
        }
        try {
            FileIdentity now = FileIdentity.of(inputs.get(inputs.size() - 1).path());
            return now.equals(then) ? Optional.empty() : Optional.of(now);
        } catch (IOException e) {
            return Optional.empty(); // unreadable now: the rerun sends nothing either way
        }
    }

    @Override
    public void inputStarted(int index, Input input) {
        if (position.file() != index) {
            position = ImportPosition.startOf(index, identity(input));
        }
    }

    @Override
    public void record(InputRecord record) {
        Callback outcome = pending.sending(record.origin(), record.size());
        try {
            sender.send(record.toProducerRecord(topic), outcome);
        } catch (KafkaException e) {
            throw fail(e); // the transaction is broken: the records in it cannot be committed
        } catch (RuntimeException e) {
            outcome.onCompletion(null, e); // refused before it joined the transaction (a partition the topic lacks)
            journal(record.origin(), e);
        }
        position = position.after(record.origin());
        commitIfDue();
    }

    @Override
    public void badLine(Origin origin, BadInputException problem) {
        tally.sent(origin.toString(), 0).onCompletion(null, problem);
        journal(origin, problem);
        position = position.after(origin);
        commitIfDue();
    }

    @Override
    public void inputEnded(int index) {
        position = index + 1 < inputs.size() ? ImportPosition.startOf(index + 1, identity(inputs.get(index + 1)))
                : ImportPosition.complete(inputs.size(), position.identity());
    }

    private void commitIfDue() {
        if (System.nanoTime() - lastCommit >= intervalNanos) {
            commitNow();
        }
    }

    private void commitNow() {
        ImportPosition at = position;
        try {
            commit.commitNow(Map.of(source, new OffsetAndMetadata(at.offset(), at.metadata(inputs))), TIMEOUT);
        } catch (RuntimeException e) {
            if (fenced(e) || PendingOutcomes.refusedAfterAFailedSend(e)) {
                throw fail(e); // refused before it could land: the next run aborts the transaction
            }
            failure = e;
            unknownCommit = at;
            pending.unknown();
            throw e;
        }
        pending.committed();
        committed = at;
        lastCommit = System.nanoTime();
    }

    private RuntimeException fail(RuntimeException e) {
        failure = e;
        pending.aborted(e);
        return e;
    }

    /** The last commit: what was read since the previous one. */
    @Override
    public void finish(LongSupplier deadline) {
        if (failure == null) {
            commitNow();
        }
    }

    @Override
    public Optional<String> resumeNote() {
        if (committed.isComplete(inputs)) {
            return Optional.of("import " + name + " is complete: a rerun sends nothing (a new --name sends the files "
                    + "again)");
        }
        if (unknownCommit != null && !endedInError(failure)) {
            return Optional.of("import " + name + "'s last commit had no clear answer (" + ErrorWords.withoutClassNames(
                    String.valueOf(failure.getMessage())) + "): it is committed up to " + describe(committed)
                    + ", or up to " + describe(unknownCommit) + " if that commit landed; a rerun of the same command "
                    + "goes on from where it did, sending nothing twice");
        }
        if (fenced(failure)) {
            // not "a rerun goes on" alone: another run may be going on already, and a rerun would start a third
            return Optional.of("another run of import " + name + " took it over (its producer fenced this one's), or "
                    + "the cluster ended a transaction left open too long: the other run goes on from "
                    + describe(committed) + ", where this one's last commit stands; if none runs, a rerun of the same "
                    + "command goes on from there");
        }
        if (endedInError(failure)) {
            // seen when a takeover's abort of this run's transaction crosses its commit: the broker answers the
            // commit with an unexpected error rather than a fencing one, so this run cannot tell which it was
            return Optional.of("import " + name + "'s transaction ended in an error at the cluster, as when another "
                    + "run of import " + name + " takes it over while this one commits: if one runs, it goes on from "
                    + describe(committed) + ", where this one's last commit stands; if none runs, a rerun of the same "
                    + "command goes on from there");
        }
        return Optional.of("import " + name + " is committed up to " + describe(committed) + ", the next line to "
                + "send; a rerun of the same command goes on from there");
    }

    /** Whether the cluster answered this run's commit (EndTxn) with an error it does not explain. */
    private static boolean endedInError(Throwable failure) {
        for (Throwable t : Causes.of(failure)) {
            if (t instanceof KafkaException && String.valueOf(t.getMessage()).startsWith("Unhandled error in "
                    + "EndTxnResponse")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code failure} is the end of this run's hold on the import's transactional ID: another producer fenced
     * it (a fenced producer, an old epoch; or an invalid transaction state, when the takeover aborts this run's
     * transaction between two of its calls), or the cluster aborted a transaction open past its timeout, which bumps
     * the epoch the same way.
     */
    private static boolean fenced(Throwable failure) {
        for (Throwable t : Causes.of(failure)) {
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException
                    || t instanceof InvalidTxnStateException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String noAnswerWhy() {
        return unknownCommit != null ? "because their transaction's commit had none" : Delivery.super.noAnswerWhy();
    }

    @Override
    public String uncommittedFate() {
        // a commit under way when the stop came may still land, with its input position: the words hold either way
        return "The records since the last commit seen are in a transaction whose commit was not seen: it commits "
                + "with its input position (one under way may still have landed) or the next run aborts it, so "
                + "read_committed readers see each record once, and the next run goes on from the last committed "
                + "position (" + describe(committed) + ", or later if that commit landed).";
    }

    private String describe(ImportPosition at) {
        if (at.isComplete(inputs)) {
            return "the end of the last file";
        }
        return inputs.get(at.file()).name() + ":" + at.line() + " (byte " + at.offset() + ")";
    }

    private static FileIdentity identity(Input input) {
        try {
            return FileIdentity.of(input.path());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + input.name() + ": " + InputReading.words(e), e);
        }
    }

    @Override
    public void close() {
        close(commit, failures);
    }

    private static void close(TargetTransactionCommit commit, DeliveryJournal failures) {
        try {
            commit.close();
        } finally {
            if (failures != null) {
                failures.close();
            }
        }
    }

    /** A line that failed, in the journal; a line failed in a window a crash left uncommitted is written again then. */
    private void journal(Origin origin, Exception why) {
        if (failures != null) {
            failures.outcome(origin.toString(), origin.offset()).onCompletion(null, why);
        }
    }
}
