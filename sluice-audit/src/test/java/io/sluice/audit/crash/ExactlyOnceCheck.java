package io.sluice.audit.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.audit.Audit;
import io.sluice.audit.AuditConfig;
import io.sluice.audit.AuditReport;
import io.sluice.audit.PartitionReport;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.format.DuckDb;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a finished archive must show after any crash and its recovery, checked three independent ways:
 * <ol>
 *   <li>the audit ({@code sluice verify}'s library) of the topic in Kafka against the storage, with the archiver's
 *       group: clean (exit status 0), every produced record expected, the group's commit at the end of each partition,
 *       nothing staged (no orphan, nothing awaiting publication) and no stranger among the visible files;
 *   <li>DuckDB reading the visible files (in place on local disk, downloaded from S3 and HDFS): as many rows as records
 *       produced, and as many distinct (partition, offset) pairs;
 *   <li>on S3, no multipart upload left incomplete (invisible to both, billed all the same);
 *   <li>the dead-letter topic, read as a read_committed consumer does: each rejected record once (the audit counts
 *       a record dead-lettered twice once, so it cannot tell).
 * </ol>
 * Each failure message carries the audit's report. For tests.
 *
 * <p>Threading: each call on its own; calls for different archives may run in parallel.
 */
final class ExactlyOnceCheck {

    private static final String INTERNAL = "_sluice/";

    private ExactlyOnceCheck() {
    }

    /**
     * Checks the archive of {@code topic}, all {@code produced} records of which were archived by {@code group} and
     * the archiver closed, but for {@code rejected} ones, dead-lettered to {@code deadLetterTopic}; {@code work} is a
     * folder of this check's own for downloads.
     */
    static void assertExactlyOnce(Map<String, Object> kafka, String topic, String group, TestStorage storage,
            long produced, String deadLetterTopic, long rejected, Path work) throws Exception {
        long archived = produced - rejected;
        // first, as it waits for the last commit's letters: the audit reads the dead-letter topic read_committed too
        String letters = deadLetterCount(kafka, deadLetterTopic);
        try (StorageBackend backend = storage.open()) {
            AuditReport report = Audit.run(AuditConfig.builder()
                    .kafkaProperties(kafka)
                    .topic(topic)
                    .deadLetterTopic(deadLetterTopic)
                    .storage(backend)
                    .groupId(group)
                    .workDir(work)
                    .build());
            String why = "\n" + report.text();
            assertEquals(AuditReport.OK, report.exitStatus(), "the audit found problems:" + why);
            assertEquals(archived, report.expected(), "the audit expects every record not dead-lettered:" + why);
            assertEquals(0, report.strangeFiles(), "only archive files are visible:" + why);
            for (PartitionReport p : report.partitions()) {
                assertEquals(AuditReport.Staged.NONE, p.staged(), "nothing left staged in partition " + p.partition()
                        + ":" + why);
                assertEquals(p.until(), p.groupCommit().committedOffset(), "partition " + p.partition()
                        + " committed to its end:" + why);
            }
            assertEquals(List.of(), storage.incompleteUploads(), "multipart uploads left incomplete");
            assertEquals(archived + "|" + archived, duckDbCount(backend, storage, work),
                    "DuckDB's rows and distinct (partition, offset) pairs in the visible files:" + why);
            assertEquals(rejected + "|" + rejected, letters,
                    "dead letters and distinct source (partition, offset) pairs, read_committed:" + why);
        }
    }

    /**
     * {@code letters|distinct source (partition, offset)} of the dead-letter topic, read_committed, once every
     * transaction in it is decided (the markers of the last commit's transaction land just after it returned).
     */
    private static String deadLetterCount(Map<String, Object> kafka, String topic) {
        List<String> sources = TestRecords.readAllDecided(kafka, topic, Duration.ofSeconds(30)).stream()
                .map(r -> header(r, DeadLetterHeaders.SOURCE_PARTITION) + "@"
                        + header(r, DeadLetterHeaders.SOURCE_OFFSET))
                .toList();
        return sources.size() + "|" + new HashSet<>(sources).size();
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    /** {@code rows|distinct (partition, offset)} of the visible files, as DuckDB reads them. */
    private static String duckDbCount(StorageBackend backend, TestStorage storage, Path work) throws Exception {
        List<Path> files = new ArrayList<>();
        for (String path : backend.list("")) {
            if (path.startsWith(INTERNAL)) {
                continue;
            }
            if (storage.localRoot().isPresent()) {
                files.add(storage.localRoot().get().resolve(path));
            } else {
                // a name of its own, keeping the extension: DuckDB decompresses by it
                Path copy = work.resolve(files.size() + "-" + path.substring(path.lastIndexOf('/') + 1));
                Files.createDirectories(work);
                backend.download(path, copy);
                files.add(copy);
            }
        }
        if (files.isEmpty()) {
            return "0|0";
        }
        String list = files.stream().map(f -> "'" + f.toString().replace("'", "''") + "'")
                .collect(Collectors.joining(", ", "[", "]"));
        try (DuckDb duck = new DuckDb()) {
            return duck.row("SELECT count(*), count(DISTINCT (kafka_partition, kafka_offset)) FROM read_ndjson(" + list
                    + ", columns = {kafka_partition: 'INTEGER', kafka_offset: 'BIGINT'})");
        }
    }
}
