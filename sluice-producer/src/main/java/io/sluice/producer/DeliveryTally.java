package io.sluice.producer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * What became of the records a producer sent: how many were sent, acknowledged and failed, their bytes, the first
 * failures with where each record came from, and how long acknowledgements took (p50, p99, max).
 *
 * <p>Use: {@code producer.send(record, tally.sent(origin, bytes))}. When {@code send} itself throws, hand the exception
 * to the callback ({@code onCompletion(null, e)}) so the record is not left pending; a callback counts only once.
 *
 * <p>Threading: safe for concurrent use; the callbacks run on the producer's I/O thread.
 */
public final class DeliveryTally {

    /** How many failures a tally keeps by default: enough to see a pattern, few enough to print. */
    public static final int DEFAULT_KEPT_FAILURES = 10;

    private final int keptFailures;
    private final LongAdder sent = new LongAdder();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder bytesAcknowledged = new LongAdder();
    private final LatencyHistogram latency = new LatencyHistogram();
    /** Guarded by itself. */
    private final List<DeliveryFailure> firstFailures = new ArrayList<>();

    public DeliveryTally() {
        this(DEFAULT_KEPT_FAILURES);
    }

    public DeliveryTally(int keptFailures) {
        if (keptFailures < 0) {
            throw new IllegalArgumentException("the failures to keep cannot be negative: " + keptFailures);
        }
        this.keptFailures = keptFailures;
    }

    /**
     * Counts a record as sent now.
     *
     * @param origin where the record came from, in the caller's words (e.g. {@code file:line}): its
     *               {@code toString()}, taken only if the record fails (a name built per record would cost more
     *               than the count)
     * @param bytes  its size as the caller measures it (e.g. key and value)
     * @return the callback to give {@code send}
     */
    public Callback sent(Object origin, long bytes) {
        return sent(origin, bytes, null);
    }

    /** As {@link #sent(Object, long)}, then calls {@code next} (when not null) with the outcome. */
    public Callback sent(Object origin, long bytes, Callback next) {
        sending(bytes);
        long start = System.nanoTime();
        AtomicBoolean done = new AtomicBoolean();
        return (RecordMetadata metadata, Exception error) -> {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            if (error == null) {
                acknowledgedAfter(System.nanoTime() - start);
                acknowledged(1, bytes);
            } else {
                failed(String.valueOf(origin), error);
            }
            if (next != null) {
                next.onCompletion(metadata, error);
            }
        };
    }

    /**
     * Counts a record as sent now, whose outcome the caller reports itself, once, with {@link #acknowledged} or
     * {@link #failed}: for records that are not done when the broker answers (a transaction's records wait for its
     * commit), whose callers keep their outcomes without a callback per record.
     */
    public void sending(long bytes) {
        sent.increment();
        bytesSent.add(bytes);
    }

    /** {@code records} counted by {@link #sending}, of {@code bytes} in all, are acknowledged. */
    public void acknowledged(long records, long bytes) {
        bytesAcknowledged.add(bytes);
        acknowledged.add(records);
    }

    /** One acknowledged record's latency, from its send to its acknowledgement. */
    public void acknowledgedAfter(long latencyNanos) {
        latency.record(latencyNanos);
    }

    /** A record counted by {@link #sending} failed; the first {@link #keptFailures} are kept with their origin. */
    public void failed(String origin, Exception error) {
        keep(new DeliveryFailure(origin, error));
        failed.increment();
    }

    /** {@code records} counted by {@link #sending} failed for one reason, none of them kept (the list is full). */
    public void failedUnlisted(long records) {
        failed.add(records);
    }

    /** How many failures this tally keeps with their origin. */
    public int keptFailures() {
        return keptFailures;
    }

    /** The first failure, if any (and if the tally keeps failures): cheap enough to check before each send. */
    public Optional<DeliveryFailure> firstFailure() {
        if (failed.sum() == 0) {
            return Optional.empty();
        }
        synchronized (firstFailures) {
            return firstFailures.stream().findFirst();
        }
    }

    public DeliverySnapshot snapshot() {
        List<DeliveryFailure> failures;
        synchronized (firstFailures) {
            failures = List.copyOf(firstFailures);
        }
        // outcomes before sends: a record is counted as sent before it can have an outcome, so pending() is never < 0
        long failedNow = failed.sum();
        long acknowledgedNow = acknowledged.sum();
        long bytesAcknowledgedNow = bytesAcknowledged.sum();
        return new DeliverySnapshot(sent.sum(), acknowledgedNow, failedNow, bytesSent.sum(),
                bytesAcknowledgedNow, failures, Duration.ofNanos(latency.percentile(0.5)),
                Duration.ofNanos(latency.percentile(0.99)), Duration.ofNanos(latency.max()));
    }

    /**
     * Keeps the first failures, but a failure with a reason of its own before those that only shared its batch: a
     * batch of hundreds failed for one record filled the list with its innocent neighbours, and the one at fault was
     * not shown (a new user's run).
     */
    private void keep(DeliveryFailure failure) {
        synchronized (firstFailures) {
            if (firstFailures.size() < keptFailures) {
                firstFailures.add(failure);
            } else if (!failure.batchMate()) {
                for (int i = firstFailures.size() - 1; i >= 0; i--) {
                    if (firstFailures.get(i).batchMate()) {
                        firstFailures.remove(i);
                        firstFailures.add(failure);
                        return;
                    }
                }
            }
        }
    }
}
