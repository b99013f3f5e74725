package io.sluice.mirror.crash;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A topic of the source cluster for the crash, zombie and fault tests, written through the cluster's internal
 * listener: it can be written to while a fault proxy cuts the mirror off the source. Its records have headers, null
 * keys and tombstones, and it can hold a committed and an aborted transaction, so a copy that takes aborted records or
 * loses a header is told apart from an exact one.
 *
 * <p>Threading: {@link #produce} and {@link #commitAndAbort} from one thread at a time; the {@link Feed} writes from
 * its own thread, and the record counter is shared.
 */
final class SourceTopic {

    private final KafkaCluster cluster;
    private final String name;
    private final int partitions;
    private final AtomicLong written = new AtomicLong();

    SourceTopic(KafkaCluster cluster, String prefix, int partitions) {
        this.cluster = cluster;
        this.name = Names.unique(prefix);
        this.partitions = partitions;
        cluster.createTopic(name, partitions);
    }

    String name() {
        return name;
    }

    /**
     * Client settings on the internal listeners: the brokers answer a request with the addresses of the listener it
     * came in on, so these clients never meet the fault proxies.
     */
    static Map<String, Object> internalClient(KafkaCluster cluster) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", cluster.nodes().stream().map(n -> "127.0.0.1:" + n.ports().internal())
                .collect(Collectors.joining(",")));
        return props;
    }

    /** {@code count} records spread over the partitions, acknowledged before this returns. */
    void produce(int count) {
        try (var producer = producer(Map.of())) {
            for (int i = 0; i < count; i++) {
                producer.send(record());
            }
            producer.flush();
        }
    }

    /** {@code count} records, all to {@code partition}, acknowledged before this returns. */
    void produceTo(int partition, int count) {
        try (var producer = producer(Map.of())) {
            for (int i = 0; i < count; i++) {
                producer.send(record(partition));
            }
            producer.flush();
        }
    }

    /**
     * One transaction of {@code count} records that commits, then one that aborts: a read_committed reader (and the
     * mirror) sees only the first.
     */
    void commitAndAbort(int count) {
        try (var producer = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, name + "-writer"))) {
            producer.initTransactions();
            for (boolean commit : new boolean[] {true, false}) {
                producer.beginTransaction();
                for (int i = 0; i < count; i++) {
                    producer.send(record());
                }
                if (commit) {
                    producer.commitTransaction();
                } else {
                    producer.flush(); // the aborted records are in the log, between the markers
                    producer.abortTransaction();
                }
            }
        }
    }

    /** Starts writing a few records every 20 ms in the background, until the feed is closed. */
    Feed feed() {
        return new Feed();
    }

    /** The source's end offsets (markers included): what the mirror's progress must reach. */
    Map<Integer, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(name, p), OffsetSpec.latest());
        }
        return cluster.admin().listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
    }

    private KafkaProducer<byte[], byte[]> producer(Map<String, Object> extra) {
        Map<String, Object> props = internalClient(cluster);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.putAll(extra);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Record i goes to partition i mod n. */
    private ProducerRecord<byte[], byte[]> record() {
        return record(-1);
    }

    /**
     * Record i: to {@code partition} (-1: i mod n), headers (one key twice), every 7th key null, every 11th value a
     * tombstone.
     */
    private ProducerRecord<byte[], byte[]> record(int partition) {
        long i = written.getAndIncrement();
        RecordHeaders headers = new RecordHeaders();
        headers.add("h", bytes("a" + i));
        headers.add("h", bytes("b" + i));
        byte[] key = i % 7 == 0 ? null : bytes("k" + i);
        byte[] value = i % 11 == 0 ? null : bytes("v" + i);
        return new ProducerRecord<>(name, partition < 0 ? (int) (i % partitions) : partition, System.currentTimeMillis(),
                key, value, headers);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Records written while a mirror runs, so every step of its commit protocol is reached again and again. A send
     * that fails (the broker is down) is simply not in the source; {@link #close} waits for the rest.
     *
     * <p>Threading: its own thread writes; {@link #close} from the test's thread.
     */
    final class Feed implements AutoCloseable {

        private final KafkaProducer<byte[], byte[]> producer = producer(Map.of(
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000, ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000));
        private final Thread thread = new Thread(this::run, "source-feed-" + name);
        private volatile boolean stopped;

        private Feed() {
            thread.setDaemon(true);
            thread.start();
        }

        private void run() {
            while (!stopped) {
                for (int i = 0; i < 5; i++) {
                    producer.send(record());
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        @Override
        public void close() {
            stopped = true;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the producer's close still sends what was queued
            }
            producer.flush();
            producer.close();
        }
    }
}
