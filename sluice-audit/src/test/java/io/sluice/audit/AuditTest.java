package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.audit.AuditReport.CommitStatus;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.sink.LocalArchiveFiles;
import io.sluice.storage.sink.Manifest;
import io.sluice.storage.sink.ManifestFile;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The audit against a real archive: the engine archived a topic to local files once (with dead letters, an aborted
 * transaction and records deleted before archiving); each test audits a copy, damaged as an incident would.
 *
 * <p>The topic, per partition: 0 holds 400 records of which deleteRecords removed the first 50 before archiving;
 * 1 holds 400 records, the one at offset 100 not JSON (dead-lettered); 2 holds 400 records, the one at offset 200
 * without the category the layout needs (dead-lettered), then an aborted transaction of 10 records (400–409, marker
 * 410) and a committed one of 10 (411–420, marker 421).
 */
class AuditTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOPIC = Names.unique("audited");
    private static final String DLQ = TOPIC + "-dlq";
    private static final String GROUP = Names.unique("archiver");
    private static Path archive;

    @BeforeAll
    static void archiveOnce() throws Exception {
        KAFKA.createTopic(TOPIC, 3);
        KAFKA.createTopic(DLQ, 1);
        produce();
        KAFKA.admin().deleteRecords(Map.of(new TopicPartition(TOPIC, 0), RecordsToDelete.beforeOffset(50))).all()
                .get(30, TimeUnit.SECONDS);
        archive = TestDirs.newDir("audit-archive");
        ArchiveRun.archive(TOPIC, GROUP, DLQ, new LocalBackend(archive), 350 + 400 + 410, 40);
    }

    @Test
    void aCleanArchiveHasEveryExpectedOffsetExactlyOnceWithDeadLettersAbortedRecordsAndRetentionApart()
            throws Exception {
        AuditReport report = audit(archive, b -> { });

        assertEquals(0, report.exitStatus(), report.text());
        assertTrue(report.summary().startsWith("OK: every expected offset of " + TOPIC + " appears exactly once"),
                report.summary());
        assertEquals(350 + 399 + 409, report.expected());
        assertEquals(report.expected(), report.exactlyOnce());
        assertEquals(0, report.unreadableFiles());
        assertEquals(0, report.strangeFiles());

        PartitionReport p0 = report.partitions().get(0);
        assertEquals(50, p0.logStartOffset());
        assertEquals(350, p0.expected());
        assertTrue(p0.archivedBelowLogStart().isEmpty());
        assertTrue(report.text().contains("retention: Kafka no longer has offsets below 50, and the archive holds none "
                + "of them"), report.text());

        PartitionReport p1 = report.partitions().get(1);
        assertEquals(399, p1.expected());
        assertEquals(1, p1.deadLettered());
        assertEquals(100, p1.deadLetters().get(0).offset());
        assertTrue(p1.deadLetters().get(0).error().startsWith("the value is not JSON"), p1.deadLetters().toString());

        PartitionReport p2 = report.partitions().get(2);
        assertEquals(422, p2.until(), "the last stable offset, after the commit marker");
        assertEquals(410, p2.inKafka(), "400 plain and 10 committed transactional records");
        assertEquals(12, p2.notInCommittedView(), "10 aborted records and 2 markers");
        assertEquals(409, p2.expected());
        assertTrue(p2.deadLetters().get(0).error().startsWith("the path template needs value.category, which is "
                + "missing"), p2.deadLetters().toString());
        assertTrue(p2.archivedAborted().isEmpty(), "no aborted record was archived");

        for (PartitionReport p : report.partitions()) {
            assertEquals(CommitStatus.COMPLETE, p.groupCommit().status(), p.groupCommit().toString());
            // partition 2's log ends in a commit marker (421): a marker never holds progress back, so the commit is
            // the log's end
            assertEquals(p.partition() == 2 ? 422 : 400, p.groupCommit().committedOffset());
            assertEquals(p.partition() == 2, p.groupCommit().detail().contains("; the commit is past the manifest's "
                    + "end (421): what lies between went into no file (dead letters, skipped records or transaction "
                    + "markers"), p.groupCommit().detail());
            assertEquals(0, p.staged().awaitingPublish() + p.staged().orphans());
        }
        JsonNode json = JSON.readTree(report.json());
        assertEquals("ok", json.get("status").asText());
        assertEquals(0, json.get("exitStatus").asInt());
        assertEquals(1, json.get("partitions").get(1).get("deadLettered").asLong(), report.json());
        assertEquals(12, json.get("partitions").get(2).get("notInCommittedView").asLong());

        // asked from offset 0, partition 0's first 50 offsets are a retention hole, not a loss
        AuditReport fromZero = audit(archive, b -> b.range(0, 0, AuditConfig.OffsetRange.LAST_STABLE));
        assertEquals(0, fromZero.exitStatus(), fromZero.text());
        assertEquals(1, fromZero.partitions().size());
        assertTrue(fromZero.partitions().get(0).notes().get(0).startsWith("the range starts at 0, below the log start "
                + "50: offsets 0–49 are gone from Kafka"), fromZero.partitions().get(0).notes().toString());
    }

    @Test
    void aDeletedFileShowsAsGapRangesAndTheManifestNamesIt() throws Exception {
        Path root = copyOfArchive("deleted");
        Path victim = fileOf(root, 1);
        List<Long> lost = offsets(victim);
        Files.delete(victim);

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        PartitionReport p1 = report.partitions().get(1);
        assertEquals(lost.size(), p1.missing().offsets(), report.text());
        assertEquals(lost.get(0), p1.missing().lowest());
        assertEquals(lost.get(lost.size() - 1), p1.missing().highest());
        assertEquals(p1.expected() - lost.size(), p1.exactlyOnce());
        String path = relative(root, victim);
        assertEquals(List.of(path), p1.missingFiles().stream().map(AuditReport.MissingFile::path).toList());
        assertEquals(0, p1.missingNotYetCommitted(), "the group committed past them: they were lost, not pending");
        assertTrue(report.partitions().get(0).clean() && report.partitions().get(2).clean());
        assertTrue(report.summary().startsWith("PROBLEMS: " + TOPIC + " in "), report.summary());
        assertTrue(report.summary().contains(": of 1,158 expected offsets, " + lost.size() + " missing"),
                report.summary());
        assertTrue(report.text().contains("not visible: " + path), report.text());
        assertTrue(report.text().contains("Missing offsets: Kafka still has these records."), report.text());
    }

    @Test
    void aCopiedFileShowsAsDuplicatesHeldByBothFilesAndIsUnnamedAndAStrangerFailsTheAuditToo() throws Exception {
        Path root = copyOfArchive("copied");
        Path original = fileOf(root, 2);
        Path copy = root.resolve("restored-from-backup").resolve(original.getFileName());
        Files.createDirectories(copy.getParent());
        Files.copy(original, copy);
        Files.writeString(root.resolve("README.txt"), "what this archive is");

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        PartitionReport p2 = report.partitions().get(2);
        List<Long> copied = offsets(original);
        assertEquals(copied.size(), p2.duplicated().offsets());
        assertEquals(0, p2.missing().offsets());
        assertEquals(List.of(new AuditReport.DuplicateRun(copied.get(0), copied.get(copied.size() - 1), copied.size(),
                List.of(relative(root, copy), relative(root, original)).stream().sorted().toList())), p2.duplicates());
        assertEquals(List.of("README.txt"), report.strangers().stream().map(AuditReport.StrangeFile::path).toList());
        assertEquals(List.of(relative(root, copy)), report.unnamed().stream().map(AuditReport.StrangeFile::path)
                .toList(), "a sink name in a folder where no manifest put it");
        assertTrue(report.text().contains("    " + copied.get(0) + "–" + copied.get(copied.size() - 1) + " ("
                + copied.size() + " of these offsets) in each of "), report.text());
        assertTrue(report.text().contains("Duplicated offsets: the files listed for each run hold the same records"),
                report.text());

        Files.delete(copy); // as the report advises
        AuditReport stranger = audit(root, b -> { });
        assertEquals(1, stranger.exitStatus(), "a file the archive does not write is never silently passed: "
                + stranger.text());
        assertEquals(1, stranger.strangeFiles());
        assertEquals(report.expected(), stranger.exactlyOnce());
        assertTrue(stranger.summary().contains("1 stranger"), stranger.summary());

        Files.delete(root.resolve("README.txt"));
        AuditReport fixed = audit(root, b -> { });
        assertEquals(0, fixed.exitStatus(), fixed.text());
    }

    @Test
    void aCopyUnderAnotherNameInTheSameFolderIsAStrangerNotAnotherTopicsFile() throws Exception {
        Path root = copyOfArchive("copy-of");
        Path original = fileOf(root, 1);
        List<Long> copied = offsets(original);
        // copy-of-<topic> is a valid topic name: the name alone would make it another topic's file
        Path copy = original.resolveSibling("copy-of-" + original.getFileName());
        Files.copy(original, copy);

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(copied.size(), report.partitions().get(1).duplicated().offsets(), report.text());
        assertEquals(0, report.otherTopicFiles(), "not skipped as another topic's");
        assertEquals(List.of(relative(root, copy)), report.strangers().stream().map(AuditReport.StrangeFile::path)
                .toList(), report.text());
        String reason = report.strangers().get(0).reason();
        assertTrue(reason.startsWith("its name says topic copy-of-" + TOPIC + " (which has no manifests here), but "),
                reason);
        assertTrue(reason.endsWith("it holds " + copied.size() + " rows, of " + TOPIC + " partition 1 (offsets "
                + copied.get(0) + "–" + copied.get(copied.size() - 1) + ")"), reason);
        assertTrue(report.text().contains("Strangers (1): ") && report.text().contains("  " + relative(root, copy)
                + ": "), report.text());
        JsonNode json = JSON.readTree(report.json());
        assertEquals(relative(root, copy), json.get("files").get("strangers").get(0).get("path").asText());
        assertEquals(1, json.get("totals").get("strangeFiles").asInt());

        // a name the sink never writes is a stranger, whatever it holds
        Files.move(copy, original.resolveSibling(original.getFileName() + ".bak.jsonl.zst"));
        AuditReport renamed = audit(root, b -> { });
        assertEquals(1, renamed.exitStatus(), renamed.text());
        assertEquals(1, renamed.strangeFiles(), renamed.text());
        assertTrue(renamed.strangers().get(0).reason().startsWith("its name is not one the archive writes"),
                renamed.strangers().get(0).reason());
        assertEquals(copied.size(), renamed.partitions().get(1).duplicated().offsets());
        assertTrue(JSON.readTree(renamed.json()).get("files").get("strangers").get(0).get("reason").asText()
                .contains("rows, of " + TOPIC + " partition 1"), renamed.json());
    }

    @Test
    void aFileOfThisTopicThatNoManifestNamesIsUnnamedEvenWhenNothingIsDuplicated() throws Exception {
        Path root = copyOfArchive("unnamed");
        Path original = fileOf(root, 0);
        List<Long> inIt = offsets(original);
        // the same rows under the archive's own kind of name, in a folder the layout could produce: no manifest put it
        Path moved = root.resolve(TOPIC).resolve("category=c9").resolve(original.getFileName());
        Files.createDirectories(moved.getParent());
        Files.move(original, moved);

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(0, report.missing() + report.duplicated(), "every offset is there once: " + report.text());
        assertEquals(List.of(relative(root, moved)), report.unnamed().stream().map(AuditReport.StrangeFile::path)
                .toList());
        assertTrue(report.unnamed().get(0).reason().contains("it holds " + inIt.size() + " rows, of " + TOPIC
                + " partition 0"), report.unnamed().get(0).reason());
        JsonNode json = JSON.readTree(report.json());
        assertEquals(relative(root, moved), json.get("files").get("unnamed").get(0).get("path").asText());
        assertEquals(1, json.get("totals").get("unnamedFiles").asInt());
        assertTrue(report.text().contains("Unnamed (1): ") && report.text().contains("  " + relative(root, moved)
                + ": no manifest of " + TOPIC + " names it"), report.text());
        assertTrue(report.summary().contains("1 unnamed file"), report.summary());
    }

    @Test
    void anotherTopicsArchiveInTheSameRootIsSkippedByItsManifestsOrByItsRows() throws Exception {
        Path root = copyOfArchive("shared");
        String other = Names.unique("neighbour");
        KAFKA.createTopic(other, 1);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < 60; i++) {
                producer.send(new ProducerRecord<>(other, 0, "k" + i, "{\"category\":\"c" + (i % 2) + "\"}"));
            }
        }
        ArchiveRun.archive(other, Names.unique("neighbour-archiver"), null, new LocalBackend(root), 60, 1_000);
        long theirs;
        try (Stream<Path> files = Files.walk(root.resolve(other))) {
            theirs = files.filter(Files::isRegularFile).count();
        }

        AuditReport byManifests = audit(root, b -> { });
        assertEquals(0, byManifests.exitStatus(), byManifests.text());
        assertEquals(Map.of(other, theirs), byManifests.otherTopics());
        assertTrue(byManifests.text().contains(theirs + " skipped (other topics: " + other + " " + theirs + ")"),
                byManifests.text());

        // archived at least once, it would have no manifests: its rows say whose it is
        String otherId = KAFKA.admin().describeTopics(List.of(other)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(other).topicId().toString();
        deleteTree(root.resolve("_sluice/manifests/" + otherId));
        AuditReport byRows = audit(root, b -> { });
        assertEquals(0, byRows.exitStatus(), byRows.text());
        assertEquals(Map.of(other, theirs), byRows.otherTopics());
        assertEquals(JSON.readTree(byRows.json()).get("files").get("otherTopics").get(other).asLong(), theirs);
    }

    @Test
    void aTruncatedFileIsUnreadableAndItsOffsetsCountAsMissing() throws Exception {
        Path root = copyOfArchive("truncated");
        Path damaged = fileOf(root, 0);
        List<Long> inIt = offsets(damaged);
        try (FileChannel file = FileChannel.open(damaged, StandardOpenOption.WRITE)) {
            file.truncate(file.size() / 2);
        }

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(1, report.unreadableFiles());
        AuditReport.UnreadableFile unreadable = report.unreadable().get(0);
        assertEquals(relative(root, damaged), unreadable.path());
        assertTrue(unreadable.reason().startsWith("unreadable after line "), unreadable.reason());
        assertEquals(inIt.size(), report.partitions().get(0).missing().offsets());
        assertTrue(report.summary().contains("1 unreadable file"), report.summary());
        JsonNode json = JSON.readTree(report.json());
        assertEquals(relative(root, damaged), json.get("files").get("unreadable").get(0).get("path").asText());
    }

    /**
     * A record of an aborted transaction in a file: a reader of the archive sees what the source aborted. On a topic
     * that is not compacted nothing else explains an archived offset Kafka does not return read_committed; it passed
     * as information, exit 0 (a review).
     */
    @Test
    void anAbortedRecordInAFileIsAProblem() throws Exception {
        Path root = copyOfArchive("aborted");
        Path file = fileOf(root, 2);
        String row = "{\"kafka_topic\":\"" + TOPIC + "\",\"kafka_partition\":2,\"kafka_offset\":405,"
                + "\"value\":{\"category\":\"c1\",\"i\":405}}\n";
        try (var out = Codec.ZSTD.compress(Files.newOutputStream(file, StandardOpenOption.APPEND))) {
            out.write(row.getBytes(java.nio.charset.StandardCharsets.UTF_8)); // a second zstd frame: read as one stream
        }

        AuditReport report = audit(root, b -> { });

        assertEquals(1, report.exitStatus(), report.text());
        PartitionReport p2 = report.partitions().get(2);
        assertEquals(1, p2.archivedAborted().offsets(), report.text());
        assertEquals(405, p2.archivedAborted().lowest());
        assertTrue(report.summary().endsWith(": 1 aborted record in files (exit status 1)"), report.summary());
        assertTrue(report.text().contains("in files but aborted in Kafka (records of transactions the source aborted, "
                + "or their markers): 1 offset: 405"), report.text());
        assertEquals(405, JSON.readTree(report.json()).get("partitions").get(2).get("aborted").get("lowest").asLong());
    }

    @Test
    void aCommittedFileLeftStagedIsAwaitingPublicationAndAMissingManifestIsAProblem() throws Exception {
        Path root = copyOfArchive("staged");
        LocalBackend storage = new LocalBackend(root);
        String topicId = topicId();
        String manifestPath = storage.list(Manifest.directory(topicId, 1)).stream().max(Comparator.naturalOrder())
                .orElseThrow();
        ManifestFile committed = Manifest.fromJson(storage.read(manifestPath).orElseThrow(), manifestPath).files().get(0);
        // as if the archiver crashed after the commit, before publishing this file
        Files.move(root.resolve(committed.path()), root.resolve(committed.staging()));

        AuditReport report = audit(root, b -> { });

        PartitionReport p1 = report.partitions().get(1);
        assertEquals(CommitStatus.AWAITING_PUBLISH, p1.groupCommit().status(), report.text());
        assertEquals(List.of(committed.path()), p1.groupCommit().notVisible());
        assertEquals(1, p1.staged().awaitingPublish());
        assertEquals(committed.records(), p1.missing().offsets());
        assertTrue(report.text().contains("Start the archiver with the same group: its recovery publishes them"),
                report.text());

        Files.delete(root.resolve(manifestPath));
        AuditReport noManifest = audit(root, b -> { });
        assertEquals(CommitStatus.MANIFEST_MISSING, noManifest.partitions().get(1).groupCommit().status());
        assertEquals(1, noManifest.exitStatus());
    }

    @Test
    void manifestsOfAnEarlierTopicOfTheSameNameMakeTheResultUntrustworthy() throws Exception {
        Path root = copyOfArchive("recreated");
        String topicId = topicId();
        String earlierId = "EarlierTopicIdOfSameNm";
        Path earlier = root.resolve("_sluice/manifests/" + earlierId + "/0");
        Files.createDirectories(earlier);
        try (Stream<Path> manifests = Files.list(root.resolve("_sluice/manifests/" + topicId + "/0"))) {
            for (Path m : manifests.toList()) {
                Files.copy(m, earlier.resolve(m.getFileName()));
            }
        }

        AuditReport report = audit(root, b -> { });

        assertEquals(List.of(earlierId), report.earlierTopicIds());
        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(0, report.missing() + report.duplicated(), "the offsets themselves look fine");
        assertTrue(report.text().contains("An earlier topic named " + TOPIC + " (topic ID " + earlierId + ")"),
                report.text());
    }

    @Test
    void withoutGroupOrDeadLetterTopicTheDeadLetteredOffsetsAreMissing() throws Exception {
        AuditReport report = audit(archive, b -> b.deadLetterTopic(null).groupId(null));

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(List.of(new OffsetRanges.Span(100, 100)), report.partitions().get(1).missing().listed());
        assertEquals(List.of(new OffsetRanges.Span(200, 200)), report.partitions().get(2).missing().listed());
        assertNull(report.partitions().get(0).groupCommit());
        assertTrue(report.text().contains("no group given, so committed manifests were not checked"), report.text());
    }

    /**
     * Two archives of one topic may share a dead-letter topic: the letters of the other one name its group and do not
     * take offsets out of this one's expected set (they hid a record missing from this archive's files).
     */
    @Test
    void deadLettersOfAnotherArchiveOfTheTopicDoNotCountForThisOne() throws Exception {
        AuditReport report = audit(archive, b -> b.groupId(GROUP + "-other"));

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(List.of(new OffsetRanges.Span(100, 100)), report.partitions().get(1).missing().listed());
        assertEquals(List.of(new OffsetRanges.Span(200, 200)), report.partitions().get(2).missing().listed());
        assertTrue(report.text().contains("2 records of the dead-letter topic were dead-lettered by other archives "
                + "(their sluice.source.group is not " + GROUP + "-other)"), report.text());
        // and should that group be this archive's earlier name, the report says what its letters cover (a review)
        assertTrue(report.text().contains("2 of the offsets reported missing were dead-lettered by " + GROUP + ": if "
                + "that was this archive under an earlier group name, they went to the dead-letter topic and are not "
                + "lost"), report.text());
    }

    /**
     * A topic deleted and created again under the same name starts its offsets again, and a dead-letter topic kept
     * across both holds the old topic's letters for the same offsets: counted, they excused a record of the new topic
     * missing at such an offset. The engine's letters name the topic's ID; one naming another ID is not counted.
     */
    @Test
    void deadLettersOfAnEarlierTopicOfTheSameNameDoNotCountForThisOne() throws Exception {
        List<ConsumerRecord<byte[], byte[]>> letters = TestRecords.readAll(KAFKA.clientProperties(Listener.PLAINTEXT),
                DLQ, java.time.Duration.ofSeconds(30));
        assertEquals(2, letters.size());
        String id = topicId();
        String copies = Names.unique("audited-dlq-copy");
        KAFKA.createTopic(copies, 1);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (ConsumerRecord<byte[], byte[]> letter : letters) {
                assertEquals(id, new String(letter.headers().lastHeader(DeadLetterHeaders.SOURCE_TOPIC_ID).value(),
                        java.nio.charset.StandardCharsets.UTF_8), "the engine's letters name the topic's ID");
                RecordHeaders headers = new RecordHeaders(letter.headers().toArray());
                boolean partitionOne = "1".equals(new String(headers.lastHeader(DeadLetterHeaders.SOURCE_PARTITION)
                        .value(), java.nio.charset.StandardCharsets.UTF_8));
                if (partitionOne) { // as the earlier topic's letter of the same offset would be
                    headers.remove(DeadLetterHeaders.SOURCE_TOPIC_ID);
                    headers.add(DeadLetterHeaders.SOURCE_TOPIC_ID, org.apache.kafka.common.Uuid.randomUuid().toString()
                            .getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                producer.send(new ProducerRecord<>(copies, 0, null, letter.key(), letter.value(), headers)).get();
            }
        }

        AuditReport report = audit(archive, b -> b.deadLetterTopic(copies));

        assertEquals(1, report.exitStatus(), report.text());
        assertEquals(0, report.partitions().get(1).deadLettered());
        assertEquals(List.of(new OffsetRanges.Span(100, 100)), report.partitions().get(1).missing().listed());
        assertEquals(1, report.partitions().get(2).deadLettered(), "a letter naming this topic's ID counts");
        assertTrue(report.text().contains("1 record of the dead-letter topic was dead-lettered from an earlier topic "
                + "named " + TOPIC + " (deleted and created again: they name another topic ID)"), report.text());
    }

    private static AuditReport audit(Path root, Consumer<AuditConfig.Builder> more) throws AuditException {
        AuditConfig.Builder config = AuditConfig.builder()
                .kafkaProperties(KAFKA.clientProperties(Listener.PLAINTEXT))
                .topic(TOPIC)
                .storage(new LocalBackend(root))
                .deadLetterTopic(DLQ)
                .groupId(GROUP)
                .workDir(TestDirs.newDir("audit-work"));
        more.accept(config);
        return Audit.run(config.build());
    }

    private static String topicId() throws Exception {
        return KAFKA.admin().describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC)
                .topicId().toString();
    }

    /** The first data file of {@code partition} (by path) that holds more than one row. */
    private static Path fileOf(Path root, int partition) throws Exception {
        for (Path f : LocalArchiveFiles.files(root).stream().sorted().toList()) {
            if (f.getFileName().toString().startsWith(TOPIC + "+" + partition + "+") && offsets(f).size() > 1) {
                return f;
            }
        }
        throw new AssertionError("no file of partition " + partition + " under " + root);
    }

    private static List<Long> offsets(Path file) throws Exception {
        return LocalArchiveFiles.rows(file).stream().map(r -> r.get("kafka_offset").asLong()).sorted().toList();
    }

    private static String relative(Path root, Path file) {
        return root.relativize(file).toString().replace('\\', '/');
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    private static Path copyOfArchive(String name) throws IOException {
        Path copy = TestDirs.newDir("audit-" + name);
        try (Stream<Path> files = Files.walk(archive)) {
            for (Path f : files.toList()) {
                Path target = copy.resolve(archive.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        return copy;
    }

    private static void produce() {
        Map<String, Object> plain = new HashMap<>(KAFKA.clientProperties(Listener.PLAINTEXT));
        plain.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        try (var producer = new KafkaProducer<>(plain, new StringSerializer(), new StringSerializer())) {
            for (int p = 0; p < 3; p++) {
                for (int i = 0; i < 400; i++) {
                    String value = "{\"category\":\"c" + (i % 4) + "\",\"i\":" + i + "}";
                    if (p == 1 && i == 100) {
                        value = "not JSON at all";
                    } else if (p == 2 && i == 200) {
                        value = "{\"i\":200}";
                    }
                    producer.send(new ProducerRecord<>(TOPIC, p, "k" + i, value));
                }
            }
            producer.flush();
        }
        Map<String, Object> transactional = new HashMap<>(plain);
        transactional.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, Names.unique("audit-tx"));
        try (var producer = new KafkaProducer<>(transactional, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 2, "aborted", "{\"category\":\"c0\",\"aborted\":" + i + "}"));
            }
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 2, "committed", "{\"category\":\"c1\",\"tx\":" + i + "}"));
            }
            producer.commitTransaction();
        }
    }
}
