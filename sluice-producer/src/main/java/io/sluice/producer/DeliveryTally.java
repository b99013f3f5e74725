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
     * @param origin where the record came from, in the caller's words (e.g. {@code file:line}); kept if it fails
     * @param bytes  its size as the caller measures it (e.g. key and value)
     * @return the callback to give {@code send}
     */
    public Callback sent(String origin, long bytes) {
        return sent(origin, bytes, null);
    }

    /** As {@link #sent(String, long)}, then calls {@code next} (when not null) with the outcome. */
    public Callback sent(String origin, long bytes, Callback next) {
        sent.increment();
        bytesSent.add(bytes);
        long start = System.nanoTime();
        AtomicBoolean done = new AtomicBoolean();
        return (RecordMetadata metadata, Exception error) -> {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            if (error == null) {
                latency.record(System.nanoTime() - start);
                bytesAcknowledged.add(bytes);
                acknowledged.increment();
            } else {
                keep(new DeliveryFailure(origin, error));
                failed.increment();
            }
            if (next != null) {
                next.onCompletion(metadata, error);
            }
        };
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

    private void keep(DeliveryFailure failure) {
        synchronized (firstFailures) {
            if (firstFailures.size() < keptFailures) {
                firstFailures.add(failure);
            }
        }
    }
}
