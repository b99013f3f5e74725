package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A source and a target cluster, as the mirror tests see them: records read back per partition, compared as bytes.
 * Public for the crash, zombie and fault tests ({@code io.sluice.mirror.crash}).
 */
public record Clusters(KafkaCluster source, KafkaCluster target) {

    /** A mirror of {@code topics} from source to target, with short group timeouts, still open for more settings. */
    public MirrorConfig.Builder mirror(String name, String... topics) {
        return mirror(source.clientProperties(Listener.PLAINTEXT), target.clientProperties(Listener.PLAINTEXT), name,
                topics);
    }

    /** The same, from the clusters' client settings only: for a mirror in a child JVM. */
    public static MirrorConfig.Builder mirror(Map<String, Object> source, Map<String, Object> target, String name,
            String... topics) {
        return MirrorConfig.builder()
                .name(name)
                .sourceProperties(source)
                .sourceProperty("session.timeout.ms", 6_000)
                .sourceProperty("heartbeat.interval.ms", 500)
                .targetProperties(target)
                .topics(topics)
                .commitInterval(Duration.ofMillis(200));
    }

    /**
     * The target topic holds every record of the source topic once, in source order per partition, as read_committed
     * readers see both, each copy naming the source offset it came from.
     */
    public void assertSameRecords(String sourceTopic, String targetTopic) throws Exception {
        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        var sourceRecords = partitions(source, sourceTopic);
        var targetRecords = partitions(target, targetTopic);
        assertEquals(sourceRecords.keySet(), targetRecords.keySet(), "partitions with records");
        sourceRecords.forEach((p, records) -> {
            List<ConsumerRecord<byte[], byte[]>> copies = targetRecords.get(p);
            assertEquals(records.stream().map(Clusters::content).toList(),
                    copies.stream().map(Clusters::content).toList(), "partition " + p + ": every record once, in order");
            for (int i = 0; i < records.size(); i++) {
                assertEquals(new Provenance.Hop(sourceCluster, records.get(i).offset()),
                        Provenance.lastHop(copies.get(i).headers()).orElseThrow(), "the copy says where it came from");
            }
        });
    }

    /**
     * Each partition's records, in offset order, as a read_committed reader sees them once every transaction written
     * so far is decided (the markers of a mirror's last commit land just after the commit returned).
     */
    public static Map<Integer, List<ConsumerRecord<byte[], byte[]>>> partitions(KafkaCluster cluster, String topic) {
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAllDecided(
                cluster.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(30))) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(r);
        }
        return byPartition;
    }

    /**
     * A record as the mirror must keep it: key, value, headers (without the last provenance header) and timestamp,
     * as text for readable failures.
     */
    public static String content(ConsumerRecord<byte[], byte[]> r) {
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
