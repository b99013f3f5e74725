package io.sluice.core.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/** A source topic and its copy, as a read_committed reader sees them: the copy must be the source, exactly. */
record CopiedTopics(KafkaCluster kafka, String source, String target, String progressGroup) {

    /** Each partition's values, in offset order. */
    Map<Integer, List<String>> valuesOf(String topic) {
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), topic,
                Duration.ofSeconds(30))) {
            byPartition.computeIfAbsent(r.partition(), p -> new ArrayList<>())
                    .add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return byPartition;
    }

    /** Every source record once in the target, in its partition and in order; the progress at the source's end. */
    void assertExactCopy() throws Exception {
        Map<Integer, List<String>> expected = valuesOf(source);
        Map<Integer, List<String>> copied = valuesOf(target);
        for (Map.Entry<Integer, List<String>> e : expected.entrySet()) {
            List<String> got = copied.getOrDefault(e.getKey(), List.of());
            assertEquals(e.getValue().size(), got.size(), "records in target partition " + e.getKey()
                    + " (duplicates or losses)");
            assertEquals(e.getValue(), got, "target partition " + e.getKey() + " in source order");
        }
        Map<TopicPartition, OffsetAndMetadata> progress = progress();
        Map<TopicPartition, Long> ends = kafka.admin().listOffsets(expected.keySet().stream().collect(
                java.util.stream.Collectors.toMap(p -> new TopicPartition(source, p),
                        p -> org.apache.kafka.clients.admin.OffsetSpec.latest()))).all().get(30, TimeUnit.SECONDS)
                .entrySet().stream().collect(java.util.stream.Collectors.toMap(Map.Entry::getKey,
                        x -> x.getValue().offset()));
        ends.forEach((tp, end) -> {
            OffsetAndMetadata done = progress.get(new TopicPartition(target, tp.partition()));
            assertEquals(end, done == null ? null : done.offset(), "the progress committed for " + tp);
        });
    }

    /** The commit point of a copy: progress keyed by the target topic's partition of the same number. */
    static TargetTransactionCommit transactions(String bootstrap, String prefix, String progressGroup, String target) {
        return TargetTransactionCommit.builder()
                .producerProperties(Map.of("bootstrap.servers", bootstrap, "linger.ms", 5))
                .transactionalIdPrefix(prefix)
                .progressGroup(progressGroup)
                .progressPartition(source -> new TopicPartition(target, source.partition()))
                .build();
    }

    /** The progress committed in the target, keyed by the target's partitions. */
    Map<TopicPartition, OffsetAndMetadata> progress() throws Exception {
        return kafka.admin().listConsumerGroupOffsets(progressGroup).partitionsToOffsetAndMetadata()
                .get(30, TimeUnit.SECONDS);
    }

    long progressed() throws Exception {
        return progress().values().stream().filter(java.util.Objects::nonNull).mapToLong(OffsetAndMetadata::offset)
                .sum();
    }
}
