package io.sluice.mirror.copy;

import io.sluice.core.ErrorWords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import io.sluice.core.commit.ProducerCloser;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * At least once: idempotent producers (acks=all), one for each source partition up to {@link #MAX_PRODUCERS}, then
 * shared in turn; a checkpoint of a source partition waits until each of its copies was acknowledged, so the source
 * offsets committed after it never name a copy the target does not hold. A restart repeats the copies after the last
 * commit: duplicates come only from that window. A source partition keeps its producer while any copy of it is not
 * yet acknowledged, also when it leaves and comes back, so its copies are never in two producers at once and keep
 * their order; one that leaves with every copy acknowledged is forgotten (a mirror over a pattern of topics that come
 * and go would otherwise keep an entry for every partition it ever copied).
 *
 * <p>Threading: {@link #send} and {@link #flush} of one source partition from its lane; the producer's callbacks
 * on its I/O thread, which only count down and record the first failure; the choice of a producer under this
 * object's monitor, once per source partition; {@link #abandon} from the thread that reported the engine's failure.
 */
public final class AcknowledgedWrites implements TargetWrites {

    /**
     * Why not one producer for all: its one I/O thread and its five requests in flight to a broker bound what it
     * copies. On the mirror benchmark (4 partitions, 3 rounds each, 2026-11-27) one producer for all copied at 0.68x
     * the plain copier, 13.5 us of CPU a record, and one for each partition at 0.87x to 0.97x, 10.4 to 11.3 us (two
     * runs). Past eight, more producers cost threads, connections and buffers (each has its own {@code buffer.memory})
     * for little more.
     */
    public static final int MAX_PRODUCERS = 8;

    /** Past the producer's delivery timeout, by when it has failed every copy it could not deliver. */
    private static final Duration ACKNOWLEDGEMENT_MARGIN = Duration.ofSeconds(5);
    /**
     * How long closing the producers may take in all: after a clean drain nothing is in flight, and after a failure
     * they are let go of at once ({@link #abandon}), so this bounds only a close with copies left unacknowledged.
     */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final Supplier<KafkaProducer<byte[], byte[]>> newProducer;
    /** How long a checkpoint waits for its copies' acknowledgements. */
    private final Duration timeout;
    private final Map<TopicPartition, Pending> pending = new ConcurrentHashMap<>();
    /** Guarded by this. */
    private final List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
    /** Each source partition's producer while it has one (see the class comment); guarded by this. */
    private final Map<TopicPartition, KafkaProducer<byte[], byte[]>> chosen = new HashMap<>();
    /** How many partitions were given a shared producer: the next takes the next one in turn. Guarded by this. */
    private long turns;
    /** Set by {@link #abandon}: no checkpoint waits for acknowledgements any more. */
    private volatile boolean abandoned;

    /** @param newProducer makes an idempotent producer with acks=all; each one made is closed with this */
    public AcknowledgedWrites(Supplier<KafkaProducer<byte[], byte[]>> newProducer, Duration timeout) {
        this.newProducer = newProducer;
        this.timeout = timeout;
    }

    /**
     * Writes through idempotent producers (acks=all) made of {@code producerProperties}, each with a client id of its
     * own ({@code <client.id>-<n>}: a client registers its metrics in JMX under its id, and a second producer of the
     * same id was left out there, with a warning). A checkpoint waits for its copies' acknowledgements as long as the
     * producer's own delivery timeout, past which the producer fails each copy itself, and a little more: before, 30 s,
     * and one target broker silent for longer failed an at-least-once mirror (whose restart then copied the last commit
     * interval again) where exactly once rides such an outage out.
     */
    public static AcknowledgedWrites of(Map<String, Object> producerProperties) {
        Map<String, Object> props = new HashMap<>(producerProperties);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        String clientId = String.valueOf(props.getOrDefault(ProducerConfig.CLIENT_ID_CONFIG, "sluice-mirror"));
        AtomicInteger made = new AtomicInteger();
        Supplier<KafkaProducer<byte[], byte[]>> newProducer = () -> {
            Map<String, Object> own = new HashMap<>(props);
            own.put(ProducerConfig.CLIENT_ID_CONFIG, clientId + "-" + made.getAndIncrement());
            return new KafkaProducer<>(own, new ByteArraySerializer(), new ByteArraySerializer());
        };
        return new AcknowledgedWrites(newProducer, deliveryTimeout(props).plus(ACKNOWLEDGEMENT_MARGIN));
    }

    /** The producers' {@code delivery.timeout.ms}, as set or by Kafka's default. */
    static Duration deliveryTimeout(Map<String, Object> props) {
        Object set = props.getOrDefault(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                ProducerConfig.configDef().defaultValues().get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        return Duration.ofMillis((Integer) ConfigDef.parseType(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, set,
                ConfigDef.Type.INT));
    }

    /**
     * Sends a copy; throws at once when an earlier copy of {@code source} failed: a checkpoint would throw anyway, and
     * it may be far behind (a target that is down makes each send wait {@code max.block.ms}, and a checkpoint queued
     * behind a hundred such sends came after minutes, the mirror copying nothing meanwhile without failing).
     */
    @Override
    public Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy) {
        if (abandoned) {
            throw stopped(source); // its producer is closed, or one made now would be
        }
        Pending p = pending.computeIfAbsent(source, s -> new Pending(producerOf(s)));
        p.throwIfFailed(source);
        p.sent();
        return p.producer.send(copy, p);
    }

    @Override
    public synchronized Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
        List<Map<MetricName, ? extends Metric>> metrics = new ArrayList<>();
        producers.forEach(p -> metrics.add(p.metrics()));
        return metrics;
    }

    /**
     * How many producers this holds: one per source partition sent from, up to {@link #MAX_PRODUCERS}; none once
     * abandoned and closed.
     */
    synchronized int producers() {
        return producers.size();
    }

    private synchronized KafkaProducer<byte[], byte[]> producerOf(TopicPartition source) {
        if (abandoned) {
            throw stopped(source);
        }
        return chosen.computeIfAbsent(source, s -> {
            if (producers.size() < MAX_PRODUCERS) {
                producers.add(newProducer.get());
                return producers.get(producers.size() - 1);
            }
            return producers.get((int) (turns++ % MAX_PRODUCERS));
        });
    }

    @Override
    public void flush(TopicPartition source) throws Exception {
        Pending p = pending.get(source);
        if (p != null) {
            p.awaitAll(source, timeout);
        }
    }

    /** How long a checkpoint waits for its copies' acknowledgements. */
    Duration acknowledgementWait() {
        return timeout;
    }

    /** How many source partitions have a producer chosen. */
    synchronized int partitionsWithAProducer() {
        return chosen.size();
    }

    @Override
    public void forget(TopicPartition source) {
        Pending left = pending.remove(source);
        if (left == null || left.outstanding.get() == 0) {
            // no copy of it is in flight: if it comes back, any producer keeps its order
            synchronized (this) {
                chosen.remove(source);
            }
        }
    }

    /**
     * Wakes every checkpoint waiting for acknowledgements (each throws), refuses further sends, and closes the
     * producers at once, in the background ({@link ProducerCloser}): a send waiting for the target's metadata wakes and
     * throws. Unlike a transactional
     * producer's, no wait of the lane's on a producer here outlives its close.
     */
    @Override
    public void abandon() {
        abandoned = true;
        pending.values().forEach(Pending::wake);
        synchronized (this) { // a producer made by a send that took the monitor first is closed too
            ProducerCloser.closeAtOnce(List.copyOf(producers), "sluice-abandon-copies");
            producers.clear();
        }
    }

    private static IllegalStateException stopped(TopicPartition source) {
        return new IllegalStateException("the mirror stopped because of an earlier failure; a restart copies " + source
                + " from its last commit");
    }

    /** Closes every producer within one {@link #CLOSE_WAIT} in all, not one each: a target that is down costs it once. */
    @Override
    public synchronized void close() {
        if (abandoned) {
            return; // let go of at the abandon, and none is made after it
        }
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        RuntimeException failure = null;
        for (KafkaProducer<byte[], byte[]> p : producers) {
            try {
                p.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            } catch (RuntimeException e) { // the others are still closed
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The copies of one source partition not yet acknowledged, and the first that failed. Counted without a lock (a
     * monitor taken per copy by the lane and again by the producer's I/O thread showed in the mirror's profile); the
     * monitor only carries the wake-up of a waiting checkpoint.
     */
    private final class Pending implements Callback {
        final KafkaProducer<byte[], byte[]> producer;
        private final AtomicLong outstanding = new AtomicLong();
        private volatile Exception failure;

        Pending(KafkaProducer<byte[], byte[]> producer) {
            this.producer = producer;
        }

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
                if (abandoned) {
                    throw new IllegalStateException(outstanding.get() + " copies of " + source + " not acknowledged "
                            + "by the target when the mirror stopped; a restart copies them again");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    String what = outstanding.get() + " copies of " + source + " not acknowledged by the target "
                            + "cluster within " + timeout.toSeconds() + " s";
                    // a timeout, as the producer's own would be: the target did not answer (a restart may cure it)
                    throw new IllegalStateException(what, new org.apache.kafka.common.errors.TimeoutException(what));
                }
                wait(Math.max(1, left / 1_000_000));
            }
            throwIfFailed(source);
        }

        synchronized void wake() {
            notifyAll();
        }

        /** For good: a later copy may have landed after the lost one. */
        void throwIfFailed(TopicPartition source) {
            Exception failed = failure;
            if (failed != null) {
                throw new IllegalStateException("the target cluster did not take a copy of a record of " + source
                        + ": " + ErrorWords.of(failed), failed);
            }
        }
    }
}
