package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.format.FormatConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * An archive of raw values, whose files hold no Kafka coordinates: the audit vouches for their offsets by the committed
 * manifests' spans, counts and sizes, so a file cut short after its commit is found by its size.
 */
class RawAuditTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();

    @Test
    void aRawArchiveIsCleanAndAFileCutShortIsNotVouchedFor() throws Exception {
        String topic = Names.unique("raw-audit");
        String group = Names.unique("archiver");
        KAFKA.createTopic(topic, 2);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, "k" + i, "{\"category\":\"c" + (i % 3) + "\",\"i\":"
                        + i + "}"));
            }
            producer.flush();
        }
        Path archive = TestDirs.newDir("raw-audit");
        ArchiveRun.archive(topic, group, null, new LocalBackend(archive), 200, 30,
                FormatConfig.builder().format("raw").codec("none").build().fileFormat());

        AuditReport clean = audit(topic, group, archive);
        assertEquals(0, clean.exitStatus(), clean.text());

        Path cut;
        try (Stream<Path> files = Files.walk(archive)) {
            cut = files.filter(f -> f.getFileName().toString().endsWith(".raw")).sorted().findFirst().orElseThrow();
        }
        try (FileChannel file = FileChannel.open(cut, StandardOpenOption.WRITE)) {
            file.truncate(file.size() - 3);
        }
        AuditReport damaged = audit(topic, group, archive);
        assertEquals(1, damaged.exitStatus(), damaged.text());
        assertTrue(damaged.text().contains(archive.relativize(cut).toString()), damaged.text());
        assertTrue(damaged.text().contains("cut short or changed after it was written"), damaged.text());
    }

    private static AuditReport audit(String topic, String group, Path archive) throws AuditException {
        return Audit.run(AuditConfig.builder()
                .kafkaProperties(KAFKA.clientProperties(Listener.PLAINTEXT))
                .topic(topic)
                .storage(new LocalBackend(archive))
                .groupId(group)
                .workDir(TestDirs.newDir("raw-audit-work"))
                .build());
    }
}
