package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.audit.MirrorAudit;
import io.sluice.mirror.audit.MirrorAuditConfig;
import io.sluice.mirror.audit.MirrorAuditReport;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What an exactly-once mirror of one topic has committed in the target, and the end state every crash, zombie and
 * fault test must reach: each source record once in the target, in order, and progress at the source's end.
 *
 * <p>The progress is read as the mirror's claim reads it: by a read_committed consumer's {@code committed()}, which
 * waits out offsets still pending in a transaction (an admin listing may leave them out). It reads through the
 * target's internal listener, so it works while a fault proxy cuts the mirror off.
 *
 * <p>Stateless.
 */
final class TargetState {

    private TargetState() {
    }

    /** The source offsets committed in the target, by partition (identity naming); a partition without any is left out. */
    static Map<Integer, Long> committed(KafkaCluster target, MirrorConfig config, String topic, int partitions) {
        Map<String, Object> props = SourceTopic.internalClient(target);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, config.progressGroup());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Set<TopicPartition> keys = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p))
                .collect(Collectors.toSet());
        try (var reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            Map<Integer, Long> found = new TreeMap<>();
            Map<TopicPartition, OffsetAndMetadata> committed = reader.committed(keys, Duration.ofSeconds(30));
            committed.forEach((tp, offset) -> {
                if (offset != null) {
                    found.put(tp.partition(), offset.offset());
                }
            });
            return found;
        }
    }

    /** Whether the progress reached the source's end offsets, as they are now. */
    static boolean atEnd(Clusters clusters, MirrorConfig config, SourceTopic topic) throws Exception {
        Map<Integer, Long> ends = new TreeMap<>(topic.endOffsets());
        return ends.equals(committed(clusters.target(), config, topic.name(), ends.size()));
    }

    /** Waits until {@code condition} holds, checking every 100 ms. */
    static void await(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + timeout.toSeconds() + " s");
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
    }

    /**
     * The end state of every case: the target holds every committed source record exactly once, in order, byte for
     * byte, each naming its source offset, and the progress is the source's end offsets (markers included: a
     * transaction marker never holds progress back); and the audit behind {@code sluice verify} says so too.
     */
    static void assertExactlyOnce(Clusters clusters, MirrorConfig config, SourceTopic topic) throws Exception {
        clusters.assertSameRecords(topic.name(), topic.name());
        MirrorAuditReport audit = MirrorAudit.run(MirrorAuditConfig.builder(config).build());
        assertTrue(audit.clean(), audit::toText);
        Map<Integer, Long> ends = new TreeMap<>(topic.endOffsets());
        assertEquals(ends, committed(clusters.target(), config, topic.name(), ends.size()),
                "the progress committed in the target is the source's end, partition by partition");
    }
}
