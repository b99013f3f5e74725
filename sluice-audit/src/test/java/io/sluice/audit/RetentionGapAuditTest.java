package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.audit.AuditReport.CommitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Records Kafka deleted before the archiver committed past them: the audit expected offsets only from the log start,
 * so an archive that never held them was "OK", exit 0 (a review of the audits).
 */
class RetentionGapAuditTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();

    @Test
    void recordsDeletedBeforeTheArchiverCommittedPastThemAreAProblemNotForgiven() throws Exception {
        String topic = Names.unique("retention-gap");
        String group = Names.unique("archiver");
        KAFKA.createTopic(topic, 1);
        ArchiveRun.produce(topic, 1, 0, 100);
        Path archive = TestDirs.newDir("retention-gap");
        ArchiveRun.archive(topic, group, null, new LocalBackend(archive), 100, 40);
        // records the archiver has not read yet, deleted by retention (here deleteRecords) before it did
        ArchiveRun.produce(topic, 1, 100, 50);
        KAFKA.admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(150))).all()
                .get(30, TimeUnit.SECONDS);

        AuditReport report = ArchiveRun.audit(topic, group, archive);

        assertEquals(1, report.exitStatus(), report.text());
        PartitionReport p0 = report.partitions().get(0);
        assertEquals(CommitStatus.BELOW_LOG_START, p0.groupCommit().status(), report.text());
        assertTrue(p0.groupCommit().detail().startsWith("the committed offset is below the partition's log start "
                + "(150): Kafka deleted offsets 100 to 149 (50) before the archiver committed past them; 0 of them "
                + "are in files"), p0.groupCommit().detail());
        assertTrue(report.text().contains("Kafka deleted records the archiver had not committed past"), report.text());
    }
}
