package io.sluice.merge.write;

import io.sluice.core.commit.TargetTransactionCommit;
import io.sluice.core.commit.TargetWait;
import io.sluice.merge.LatePolicy;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.merge.merging.Arrival;
import io.sluice.merge.merging.MergeOutput;
import io.sluice.merge.order.MergeKey;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes one output partition's merged records through its sender (into its transaction, or at least once straight to
 * the target cluster): merged records to the
 * output partition with the input's key, value, headers and timestamp, then the provenance header; late records
 * flagged, sent to the late topic, or refused, by the late policy; records without an event time to the dead-letter
 * topic with the reason, or refused. Exactly once, everything goes into the same transaction, so it all becomes visible
 * with the commit that moves the positions past it.
 *
 * <p>Threading: the partition's merge thread only (the send callbacks run on the producer's I/O thread and only
 * record the first failure).
 */
public final class OutputPartition implements MergeOutput {

    /** How far ahead a dead letter keeps its own timestamp: under Kafka's default limit of an hour, with a margin. */
    private static final long DEAD_LETTER_FUTURE_MILLIS = 50 * 60_000L;

    /** How the reason of a record set aside because the output would refuse it begins; its value is not kept. */
    public static final String REFUSED = "the output would refuse it: ";
    /** The reason of a late record the late topic would refuse. */
    public static final String LATE_REFUSED = "late, and the late topic would refuse it: ";
    /** Added to the reason of a dead letter too large for the dead-letter topic. */
    public static final String VALUE_LEFT_OUT = "; set aside without its value, since ";

    /**
     * Whether a set-aside record with {@code reason} was written without its value (its value stays in its input):
     * only its place can be checked. Verify read only the first kind as such, and called the others changed (a review).
     */
    public static boolean withoutValue(String reason) {
        return reason.startsWith(REFUSED) || reason.startsWith(LATE_REFUSED) || reason.contains(VALUE_LEFT_OUT);
    }

    private final TopicPartition output;
    private final List<MergeInput> inputs;
    private final TargetTransactionCommit.Sender sender;
    private final LatePolicy late;
    private final TopicPartition lateTarget;
    private final TopicPartition deadTarget;
    private final MergeCounts counts;
    private final OutputLimits limits;
    /** What the late and the dead-letter topics take (null: not configured, or taken as they are). */
    private final OutputLimits lateLimits;
    private final OutputLimits deadLimits;
    private final AtomicReference<Exception> failed = new AtomicReference<>();
    /** What was sent since the last commit, counted in {@link #counts} once a commit makes it durable. */
    private final Uncommitted uncommitted;
    /** At least once, until the first record is written to the output partition: its {@link MergeHeaders#RESUMED}. */
    private String resumed;
    /**
     * Whether the merge thread waits on the target: in a send (which waits for the target's metadata with nothing
     * buffered while the target does not answer), a flush or a commit (which wait with nothing buffered once every
     * record was acknowledged); since when for a flush or a commit, and which ({@link #waitingFor}). Written by the
     * merge thread, read by a {@code TargetReach} and a {@code TargetBrokers} on another thread.
     */
    private volatile boolean sending;
    private volatile long waitingSince;
    /** Published by the write of {@link #waitingSince} that follows it; null: a wait not laid on any broker. */
    private TargetWait.Kind waitingFor;
    private final Callback onSent = (metadata, error) -> {
        if (error != null) {
            failed.compareAndSet(null, error);
        }
    };

    /** {@code latePartitions}, {@code deadPartitions}: the side topics' partition counts (0 when not configured). */
    public OutputPartition(TopicPartition output, MergeConfig config, TargetTransactionCommit.Sender sender,
            int latePartitions, int deadPartitions, OutputLimits limits, OutputLimits lateLimits,
            OutputLimits deadLimits, MergeCounts counts) {
        this.lateLimits = lateLimits;
        this.deadLimits = deadLimits;
        this.output = output;
        this.inputs = config.inputs();
        this.sender = sender;
        this.late = config.late();
        this.lateTarget = config.lateTopic().map(t -> new TopicPartition(t, output.partition() % latePartitions))
                .orElse(null);
        this.deadTarget = config.deadLetterTopic()
                .map(t -> new TopicPartition(t, output.partition() % deadPartitions)).orElse(null);
        this.counts = counts;
        this.limits = limits;
        this.uncommitted = new Uncommitted(inputs.size());
    }

    /** The partition's commit made what was sent since the one before it durable: it counts now. */
    public void committed() {
        for (int i = 0; i < inputs.size(); i++) {
            counts.committed(i, uncommitted.merged[i], uncommitted.late[i], uncommitted.dead[i]);
        }
        uncommitted.clear();
    }

    /** Records sent since the last commit, per input. */
    private static final class Uncommitted {
        final long[] merged;
        final long[] late;
        final long[] dead;

        Uncommitted(int inputs) {
            merged = new long[inputs];
            late = new long[inputs];
            dead = new long[inputs];
        }

        void clear() {
            java.util.Arrays.fill(merged, 0);
            java.util.Arrays.fill(late, 0);
            java.util.Arrays.fill(dead, 0);
        }
    }

    /**
     * At least once: the first record written to the output partition will say that the merge resumed after
     * {@code last} (the committed state's last key), where a repeated window may begin.
     */
    public void markResumed(MergeKey last) {
        resumed = last.equals(MergeKey.NONE) ? "none" : last.time() + "/" + last.input() + "/" + last.offset();
    }

    @Override
    public boolean emit(int input, Arrival arrival, MergeKey key, MergeKey lateAfter) throws Exception {
        checkSends();
        ConsumerRecord<byte[], byte[]> r = arrival.record();
        RecordHeaders headers = MergeHeaders.copy(r.headers(), inputs.get(input).name(), r.partition(), r.offset());
        TopicPartition to = output;
        if (lateAfter != null) {
            switch (late) {
                case FLAG -> MergeHeaders.add(headers, MergeHeaders.LATE, Long.toString(lateAfter.time()));
                case SIDE_TOPIC -> to = lateTarget;
                case STOP -> throw new MergeStoppedException("input '" + inputs.get(input).name() + "' partition "
                        + r.partition() + " offset " + r.offset() + " has event time " + eventTime(key.time())
                        + ", below " + eventTime(lateAfter.time()) + " already emitted to " + output + " (late: stop), "
                        + behind(lateAfter.time() - key.time()) + " behind. Choose late: flag or "
                        + "late: side-topic to keep going with late records, or raise max-wait if an input was slow.");
            }
        }
        // the output's limits, for the records that go there: a late record bound for the late topic, which the merge
        // made to take what the inputs took, was refused as the output's (a review)
        OutputLimits there = to == output ? limits : lateLimits;
        String refused = there == null ? null : there.refusal(r, 64, System.currentTimeMillis());
        if (refused != null) {
            deadLetter(input, r, (to == output ? REFUSED : LATE_REFUSED) + refused, false);
            return false;
        }
        if (lateAfter != null) {
            uncommitted.late[input]++;
        }
        if (resumed != null && to == output) {
            MergeHeaders.add(headers, MergeHeaders.RESUMED, resumed);
            resumed = null;
        }
        // a record without a timestamp (-1, merged by a field of its value) cannot be written with it: the producer
        // refuses a negative one and stopped the merge at that record at every start; the broker's time goes in its
        // place, and a header says it had none, which verify compares
        Long timestamp = r.timestamp();
        if (timestamp < 0) {
            MergeHeaders.add(headers, MergeHeaders.TIMESTAMP, Long.toString(timestamp));
            timestamp = null;
        }
        send(new ProducerRecord<>(to.topic(), to.partition(), timestamp, r.key(), r.value(), headers));
        uncommitted.merged[input]++;
        return true;
    }

    @Override
    public void reject(int input, Arrival arrival) throws Exception {
        checkSends();
        deadLetter(input, arrival.record(), arrival.problem(), true);
    }

    /** Sets a record aside with the reason, or stops the merge when there is no dead-letter topic. */
    private void deadLetter(int input, ConsumerRecord<byte[], byte[]> r, String reason, boolean keepValue)
            throws MergeStoppedException {
        String where = "input '" + inputs.get(input).name() + "' partition " + r.partition() + " offset " + r.offset();
        if (deadTarget == null) {
            throw new MergeStoppedException(where + " cannot be merged: " + reason + ". Set dead-letter-topic to set "
                    + "such records aside and go on.");
        }
        RecordHeaders headers = MergeHeaders.copy(r.headers(), inputs.get(input).name(), r.partition(), r.offset());
        // a dead-letter topic made before by the user may take less than the inputs (a broker's default 1 MiB): a
        // value too large for it stays in its input, at the named offset (a review)
        String tooLarge = keepValue && deadLimits != null ? deadLimits.sizeRefusal(r, 64 + reason.length()) : null;
        if (tooLarge != null) {
            keepValue = false;
            reason = reason + VALUE_LEFT_OUT + tooLarge;
        }
        MergeHeaders.add(headers, MergeHeaders.REASON, reason);
        // a record the output refuses would be refused here too: its value stays in its input, at the named offset.
        // Nor a timestamp hours ahead (a record with no event time may have one), or one the dead-letter topic would
        // refuse: the topic refused it, the transaction failed, and every restart met the same record (a review); the
        // broker stamps it, the header keeps it
        long now = System.currentTimeMillis();
        Long timestamp = keepValue ? r.timestamp() : null;
        if (timestamp != null && (timestamp < 0 || timestamp > now + DEAD_LETTER_FUTURE_MILLIS
                || deadLimits != null && deadLimits.timestampRefusal(timestamp, now) != null)) {
            MergeHeaders.add(headers, MergeHeaders.TIMESTAMP, Long.toString(timestamp));
            timestamp = null;
        }
        send(new ProducerRecord<>(deadTarget.topic(), deadTarget.partition(), timestamp, r.key(),
                keepValue ? r.value() : null, headers));
        uncommitted.dead[input]++;
        counts.setAside(where + ": " + reason);
    }

    private void send(ProducerRecord<byte[], byte[]> record) {
        sending = true;
        try {
            sender.send(record, onSent);
        } finally {
            sending = false;
        }
    }

    /** A flush or a commit in the target, run by {@link #awaitingTarget}. */
    public interface TargetCall {
        void run() throws Exception;
    }

    /**
     * Runs {@code call} (a flush or a commit in the target: {@code what}, or null for one made by a client other than
     * the producers, which no broker is to be blamed for from their counts) counted as waiting on the target, as a
     * send is: a commit that waits on a target gone silent after every record was acknowledged was otherwise never
     * said.
     */
    public void awaitingTarget(TargetWait.Kind what, TargetCall call) throws Exception {
        sending = true;
        waitingFor = what;
        waitingSince = System.nanoTime();
        try {
            call.run();
        } finally {
            waitingSince = 0;
            sending = false;
        }
    }

    /** Whether the merge thread waits on the target now (a send, a flush or a commit); any thread. */
    public boolean sending() {
        return sending;
    }

    /**
     * What the merge thread's flush or commit waits for in the target now, and since when; empty when it waits for
     * none, or for one no broker is to be blamed for.
     */
    public Optional<TargetWait> waiting() {
        long since = waitingSince;
        TargetWait.Kind what = waitingFor;
        // read again: a new wait may have begun between the two reads, and its kind is not this one's
        return since == 0 || what == null || waitingSince != since ? Optional.empty()
                : Optional.of(new TargetWait(what, since));
    }

    /** A send that failed makes the transaction fail at its commit; stop before adding to it. */
    public void checkSends() throws Exception {
        Exception error = failed.get();
        if (error != null) {
            throw error;
        }
    }

    /** An event time as people read it, "2026-09-22T09:46:40Z (1790000000000)": the epoch number alone said nothing. */
    private static String eventTime(long millis) {
        return Instant.ofEpochMilli(millis) + " (" + millis + ")";
    }

    /** "1.5 s", "4 min 10 s", "3 h 20 min", "69 d 4 h": how far behind. */
    static String behind(long millis) {
        Duration d = Duration.ofMillis(millis);
        if (millis < 60_000) {
            return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
        } else if (d.toHours() == 0) {
            return d.toMinutes() + " min " + d.toSecondsPart() + " s";
        } else if (d.toDays() == 0) {
            return d.toHours() + " h " + d.toMinutesPart() + " min";
        }
        return d.toDays() + " d " + d.toHoursPart() + " h";
    }
}
