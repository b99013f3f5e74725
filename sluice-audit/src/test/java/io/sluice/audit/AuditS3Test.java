package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.audit.AuditReport.CommitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.S3Backend;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.SharedS3;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.s3.S3Server;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/** The audit of an archive the engine wrote to S3 (s3proxy), before and after Kafka's retention removed records. */
class AuditS3Test {

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final S3Server s3 = SharedS3.server();

    @Test
    void anS3ArchiveIsCleanRecordsDeletedFromKafkaAreRetentionNotLossAndADeletedObjectIsAGap() throws Exception {
        String topic = Names.unique("audited-s3");
        String group = Names.unique("archiver-s3");
        String bucket = s3.createBucket("audit");
        kafka.createTopic(topic, 1);
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 200; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "{\"category\":\"c" + (i % 4) + "\",\"i\":" + i
                        + "}"));
            }
        }
        // files roll at close only: four of them, one per category, to keep the S3 round trips few
        ArchiveRun.archive(topic, group, null, backend(bucket), 200, 1_000);
        AuditReport clean = audit(topic, group, bucket);
        assertEquals(0, clean.exitStatus(), clean.text());
        assertEquals(200, clean.expected());
        assertTrue(clean.filesRead() >= 4, "one file per category at least: " + clean.filesRead());
        assertEquals(CommitStatus.COMPLETE, clean.partitions().get(0).groupCommit().status());
        assertTrue(clean.storage().startsWith("s3://" + bucket + "/archive/"), clean.storage());

        kafka.admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(80))).all()
                .get(30, TimeUnit.SECONDS);
        AuditReport retained = audit(topic, group, bucket);
        assertEquals(0, retained.exitStatus(), retained.text());
        PartitionReport p = retained.partitions().get(0);
        assertEquals(80, p.logStartOffset());
        assertEquals(120, p.expected());
        assertEquals(List.of(new OffsetRanges.Span(0, 79)), p.archivedBelowLogStart().listed());
        assertTrue(retained.text().contains("retention: Kafka no longer has offsets below 80; the archive holds 80 "
                + "offsets: 0–79 of them"), retained.text());

        // a copy under another name in the same folder is a stranger, never another topic's file
        String original;
        try (S3Backend storage = backend(bucket)) {
            original = storage.list("").stream().filter(k -> !k.startsWith("_sluice/")).sorted().findFirst()
                    .orElseThrow();
        }
        String copy = original.substring(0, original.lastIndexOf('/') + 1) + "copy-of-"
                + original.substring(original.lastIndexOf('/') + 1);
        try (S3Client client = s3.client()) {
            client.copyObject(b -> b.sourceBucket(bucket).sourceKey("archive/" + original).destinationBucket(bucket)
                    .destinationKey("archive/" + copy));
            AuditReport copied = audit(topic, group, bucket);
            assertEquals(1, copied.exitStatus(), copied.text());
            assertEquals(List.of(copy), copied.strangers().stream().map(AuditReport.StrangeFile::path).toList());
            assertTrue(copied.strangers().get(0).reason().contains("rows, of " + topic + " partition 0"),
                    copied.strangers().get(0).reason());
            client.deleteObject(b -> b.bucket(bucket).key("archive/" + copy));
        }

        String victim;
        try (S3Backend storage = backend(bucket)) {
            victim = storage.list("").stream().filter(k -> !k.startsWith("_sluice/")).sorted()
                    .reduce((a, b) -> b).orElseThrow();
        }
        try (S3Client client = s3.client()) {
            client.deleteObject(b -> b.bucket(bucket).key("archive/" + victim));
        }
        AuditReport gap = audit(topic, group, bucket);
        assertEquals(1, gap.exitStatus(), gap.text());
        assertTrue(gap.partitions().get(0).missing().offsets() > 0, gap.text());
        assertEquals(List.of(victim), gap.partitions().get(0).missingFiles().stream()
                .map(AuditReport.MissingFile::path).toList());
    }

    private AuditReport audit(String topic, String group, String bucket) throws AuditException {
        try (S3Backend storage = backend(bucket)) {
            return Audit.run(AuditConfig.builder()
                    .kafkaProperties(kafka.clientProperties(Listener.PLAINTEXT))
                    .topic(topic)
                    .storage(storage)
                    .groupId(group)
                    .workDir(TestDirs.newDir("audit-s3-work"))
                    .build());
        }
    }

    private S3Backend backend(String bucket) {
        return new S3Backend(s3.endpoint(), S3Server.REGION, StaticCredentialsProvider.create(
                AwsBasicCredentials.create(s3.accessKey(), s3.secretKey())), bucket, "archive/",
                S3Backend.MIN_PART_SIZE);
    }
}
