package io.sluice.mirror;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.copy.Provenance;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/** A source and a target cluster, as the mirror tests see them: records read back per partition, compared as bytes. */
record Clusters(KafkaCluster source, KafkaCluster target) {

    /** A mirror of {@code topics} from source to target, with short group timeouts, still open for more settings. */
    MirrorConfig.Builder mirror(String name, String... topics) {
        return MirrorConfig.builder()
                .name(name)
                .sourceProperties(source.clientProperties(Listener.PLAINTEXT))
                .sourceProperty("session.timeout.ms", 6_000)
                .sourceProperty("heartbeat.interval.ms", 500)
                .targetProperties(target.clientProperties(Listener.PLAINTEXT))
                .topics(topics)
                .commitInterval(Duration.ofMillis(200));
    }

    /** Each partition's records, in offset order, as a read_committed reader sees them. */
    static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> partitions(KafkaCluster cluster, String topic) {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAll(cluster.clientProperties(Listener.PLAINTEXT), topic,
                Duration.ofSeconds(30))) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r);
        }
        return byPartition;
    }

    /**
     * A record as the mirror must keep it: key, value, headers (without the last provenance header) and timestamp,
     * as text for readable failures.
     */
    static String content(ConsumerRecord<byte[], byte[]> r) {
        List<Header> headers = new ArrayList<>(Arrays.asList(r.headers().toArray()));
        if (!headers.isEmpty() && headers.get(headers.size() - 1).key().equals(Provenance.HEADER)) {
            headers.remove(headers.size() - 1);
        }
        StringBuilder b = new StringBuilder().append(text(r.key())).append('=').append(text(r.value())).append('@')
                .append(r.timestamp());
        headers.forEach(h -> b.append(" [").append(h.key()).append(':').append(text(h.value())).append(']'));
        return b.toString();
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
