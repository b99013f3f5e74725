package io.sluice.mirror.groups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The failover column of {@code sluice mirror --groups}: the copies between a group's target commit and its
 * translation, counted up to a limit; a group further apart than that is said with the offsets between (counting read
 * them all, gave up after 30 s, and the whole report failed with no row shown: a review).
 */
class GroupTranslationReportTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void aGroupFurtherFromItsTranslationThanTheLimitIsSaidByItsOffsetsNotCounted() throws Exception {
        String topic = Names.unique("report");
        String group = Names.unique("readers");
        source.createTopic(topic, 1);
        try (var producer = new KafkaProducer<>(source.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < 30; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, ("r" + i).getBytes(StandardCharsets.UTF_8)));
            }
        }
        MirrorConfig config = MirrorConfig.builder().name(Names.unique("report"))
                .sourceProperties(source.clientProperties(Listener.PLAINTEXT))
                .targetProperties(target.clientProperties(Listener.PLAINTEXT)).topics(topic)
                .groups(Pattern.compile(Pattern.quote(group))).commitInterval(Duration.ofMillis(50)).untilEnd(true)
                .build();
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(Duration.ofSeconds(60)), "a bounded mirror ends at the end offsets");
            assertEquals(Health.STOPPED, mirror.engine().health(), () -> "failed: " + mirror.engine().failure());
        }
        TopicPartition p0 = new TopicPartition(topic, 0);
        source.admin().alterConsumerGroupOffsets(group, Map.of(p0, new OffsetAndMetadata(25))).all()
                .get(30, TimeUnit.SECONDS);
        target.admin().alterConsumerGroupOffsets(group, Map.of(p0, new OffsetAndMetadata(0))).all()
                .get(30, TimeUnit.SECONDS);

        String sourceCluster = source.admin().describeCluster().clusterId().get(30, TimeUnit.SECONDS);
        try (GroupTranslations translations = GroupTranslations.open(config, sourceCluster, source.admin(),
                target.admin(), TIMEOUT)) {
            GroupTranslationReport counted = GroupTranslationReport.of(translations);
            assertEquals(1, counted.rows().size(), counted.text());
            assertEquals(OptionalLong.of(25), counted.rows().get(0).rereadOnFailover(), counted.text());
            assertTrue(counted.text().contains("re-reads 25"), counted.text());

            GroupTranslationReport limited = GroupTranslationReport.of(translations, 10);
            GroupTranslationReport.Row row = limited.rows().get(0);
            assertEquals(OptionalLong.empty(), row.rereadOnFailover());
            assertEquals(Optional.of("re-reads up to 25 records (the offsets between the target's commit and the "
                    + "translation; not counted, being so many)"), row.uncounted());
            assertTrue(limited.text().contains(row.uncounted().get()), limited.text());
        }
    }
}
