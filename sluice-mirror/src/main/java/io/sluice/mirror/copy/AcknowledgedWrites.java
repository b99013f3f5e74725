package io.sluice.mirror.copy;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * At least once: one idempotent producer (acks=all) for every partition; a checkpoint of a source partition waits
 * until each of its copies was acknowledged, so the source offsets committed after it never name a copy the target
 * does not hold. A restart repeats the copies after the last commit: duplicates come only from that window.
 *
 * <p>Threading: {@link #send} and {@link #flush} of one source partition from its lane; the producer's callbacks
 * on its I/O thread, which only count down and record the first failure.
 */
public final class AcknowledgedWrites implements TargetWrites {

    private final KafkaProducer<byte[], byte[]> producer;
    private final Duration timeout;
    private final Map<TopicPartition, Pending> pending = new ConcurrentHashMap<>();

    /** @param producer an idempotent producer with acks=all; closed with this */
    public AcknowledgedWrites(KafkaProducer<byte[], byte[]> producer, Duration timeout) {
        this.producer = producer;
        this.timeout = timeout;
    }

    @Override
    public Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy) {
        Pending p = pending.computeIfAbsent(source, s -> new Pending());
        p.sent();
        return producer.send(copy, p);
    }

    @Override
    public void flush(TopicPartition source) throws Exception {
        Pending p = pending.get(source);
        if (p != null) {
            p.awaitAll(source, timeout);
        }
    }

    @Override
    public void forget(TopicPartition source) {
        pending.remove(source);
    }

    @Override
    public void close() {
        producer.close(timeout);
    }

    /**
     * The copies of one source partition not yet acknowledged, and the first that failed. Counted without a lock (a
     * monitor taken per copy by the lane and again by the producer's I/O thread showed in the mirror's profile); the
     * monitor only carries the wake-up of a waiting checkpoint.
     */
    private static final class Pending implements Callback {
        private final AtomicLong outstanding = new AtomicLong();
        private volatile Exception failure;

        void sent() {
            outstanding.incrementAndGet();
        }

        @Override
        public void onCompletion(RecordMetadata metadata, Exception error) {
            if (error != null && failure == null) {
                failure = error; // the I/O thread is the only writer
            }
            if (outstanding.decrementAndGet() == 0) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }

        /** The count is read under the monitor, which a callback that brings it to 0 takes to wake this. */
        synchronized void awaitAll(TopicPartition source, Duration timeout) throws Exception {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (outstanding.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException(outstanding.get() + " copies of " + source + " not acknowledged "
                            + "by the target cluster within " + timeout);
                }
                wait(Math.max(1, left / 1_000_000));
            }
            Exception failed = failure;
            if (failed != null) { // for good: a later copy may have landed after the lost one
                throw new IllegalStateException("the target cluster did not take a copy of a record of " + source
                        + ": " + failed.getMessage(), failed);
            }
        }
    }
}
