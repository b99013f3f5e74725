package io.sluice.audit;

import io.sluice.audit.AuditReport.CommitStatus;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SortedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;

/**
 * The audit behind {@code sluice verify}: does every offset of a topic that Kafka still has, and that was not
 * dead-lettered, appear in exactly one visible file of the archive? See {@code docs/audit.md}.
 *
 * <pre>
 * AuditReport report = Audit.run(AuditConfig.builder()
 *         .kafkaProperties(Map.of("bootstrap.servers", "broker:9092"))
 *         .topic("events").storage(new LocalBackend(Path.of("/data/archive")))
 *         .deadLetterTopic("events-dlq").groupId("archiver")
 *         .build());
 * System.out.print(report.text());
 * System.exit(report.exitStatus());
 * </pre>
 *
 * <p>It reads Kafka (read_committed, no consumer group, nothing committed) and the storage; it changes neither.
 *
 * <p>Threading: {@link #run} may be called from any thread; each call is independent. Kafka is scanned on a thread
 * of its own while the files are read on a small pool.
 */
public final class Audit {

    private Audit() {
    }

    /**
     * Runs the audit and returns its report, whatever it found.
     *
     * @throws AuditException when the audit cannot be carried out: Kafka or the storage unreachable, the topic or a
     *     partition missing; the message says what to check
     */
    public static AuditReport run(AuditConfig config) throws AuditException {
        Instant startedAt = Instant.now();
        long start = System.nanoTime();
        TopicSnapshot snapshot = TopicSnapshot.take(config);
        SortedMap<Integer, KafkaPartition> plan = KafkaScan.plan(config, snapshot);
        Path work = workDirectory(config);
        ManifestIndex manifests = new ManifestIndex(config.storage(), snapshot.topicId);
        try {
            // Kafka and the files are read at the same time: one mostly waits on the broker, the other on storage
            FutureTask<DeadLetterScan> kafka = new FutureTask<>(() -> {
                KafkaScan.run(config, plan);
                return DeadLetterScan.run(config, snapshot, plan);
            });
            Thread kafkaThread = new Thread(kafka, "sluice-audit-kafka");
            kafkaThread.setDaemon(true);
            kafkaThread.start();
            ArchiveContents contents;
            try {
                contents = new ArchiveScan(config.storage(), config.topic(), plan.keySet(), config.readThreads(), work,
                        manifests, config.progress()).run();
            } catch (IOException | AuditException | RuntimeException e) {
                kafka.cancel(true);
                throw e;
            }
            DeadLetterScan deadLetters = await(kafka);
            refuseAnEmptyLocation(config, snapshot, contents, manifests);
            return report(config, snapshot, plan, contents, manifests, deadLetters, work, startedAt, start);
        } catch (IOException e) {
            throw new AuditException("cannot read the archive at " + config.storage().describe() + ": " + e.getMessage(),
                    e);
        } finally {
            deleteQuietly(work);
        }
    }

    /**
     * A location with nothing at all in it (no file, of any topic, and no manifest) while the archiver's group has
     * committed progress on the topic is a wrong location far more often than a lost archive: said so, rather than a
     * report of every offset missing whose advice (restore, reset the group's offsets) would be wrong for a typo in
     * a path. Without commits (an archiver that has not run yet) the report says what is not archived yet.
     */
    private static void refuseAnEmptyLocation(AuditConfig config, TopicSnapshot snapshot, ArchiveContents contents,
            ManifestIndex manifests) throws IOException, AuditException {
        boolean expected = snapshot.commits != null && snapshot.commits.values().stream().anyMatch(c -> c.offset() > 0);
        boolean nothing = contents.visibleFiles == 0 && contents.skippedFiles == 0 && contents.strangers.isEmpty()
                && contents.unreadable.isEmpty() && !manifests.any();
        if (expected && nothing) {
            throw new AuditException("nothing at all is at " + config.storage().describe() + ": no file and no "
                    + "manifest, while the archiver's group has committed progress on " + config.topic() + ". Is the "
                    + "location right (sink.location, or --storage)? Nothing was checked");
        }
    }

    /**
     * A committed offset below the log start: the range between was deleted by Kafka (retention, deleteRecords) before
     * the archiver committed past it, and the audit expects only from the log start, so every record of it that never
     * reached a file passed unseen, exit 0 (a review). A problem now, with what the files hold of the range.
     */
    private static AuditReport.GroupCommit belowLogStart(AuditReport.GroupCommit commit, KafkaPartition k,
            PartitionSets sets) {
        if (commit == null || commit.committedOffset() < 0 || commit.committedOffset() >= k.logStart()
                || commit.status().problem()) {
            return commit;
        }
        long gone = k.logStart() - commit.committedOffset();
        long inFiles = sets.belowLogStart.between(commit.committedOffset(), k.logStart() - 1).size();
        return new AuditReport.GroupCommit(commit.committedOffset(), commit.manifest(), CommitStatus.BELOW_LOG_START,
                "the committed offset is below the partition's log start (" + k.logStart() + "): Kafka deleted offsets "
                        + commit.committedOffset() + " to " + (k.logStart() - 1) + " (" + gone + ") before the archiver "
                        + "committed past them; " + inFiles + " of them are in files, and the others were lost unless "
                        + "they were transaction markers or aborted records, or are in files the archiver has not "
                        + "committed yet (a running archiver at retention's edge)", commit.notVisible());
    }

    private static AuditReport report(AuditConfig config, TopicSnapshot snapshot, SortedMap<Integer, KafkaPartition> plan,
            ArchiveContents contents, ManifestIndex manifests, DeadLetterScan deadLetters, Path work, Instant startedAt,
            long start) throws IOException, AuditException {
        StorageBackend storage = config.storage();
        int limit = config.listLimit();
        ClaimCheck claims = new ClaimCheck(storage);
        List<PartitionReport> partitions = new ArrayList<>();
        long missingLetteredByOthers = 0;
        for (KafkaPartition k : plan.values()) {
            int p = k.partition;
            DeadLetterScan.PartitionDeadLetters letters = deadLetters.partitions.getOrDefault(p,
                    new DeadLetterScan.PartitionDeadLetters());
            FoundPartition found = contents.partition(p);
            PartitionSets sets = new PartitionSets(k, letters.offsets);
            claims.apply(p, contents.claims.stream().filter(c -> c.name().partition() == p).toList(), manifests,
                    sets.expected, found);
            sets.compare(found);

            List<PendingRef> staged = storage.listStaged(GroupCheck.stagingPrefix(snapshot.topicId, p));
            OffsetAndMetadata commit = snapshot.commits == null ? null : snapshot.commits.get(p);
            GroupCheck.Result group = GroupCheck.check(p, commit, snapshot.topicId, manifests, contents.visible, staged,
                    limit);
            AuditReport.GroupCommit groupCommit = snapshot.commits == null ? null
                    : group.commit() != null ? group.commit() : GroupCheck.nothingCommitted();
            groupCommit = belowLogStart(groupCommit, k, sets);
            OffsetSet others = deadLetters.otherGroupOffsets.get(p);
            if (others != null) {
                long[] covered = new long[1];
                sets.missing.forEachRun((first, last) -> {
                    for (long o = first; o <= last; o++) {
                        covered[0] += others.contains(o) ? 1 : 0;
                    }
                });
                missingLetteredByOthers += covered[0];
            }
            long notYetCommitted = groupCommit != null && groupCommit.committedOffset() >= 0
                    ? sets.missing.between(groupCommit.committedOffset(), Long.MAX_VALUE).size() : 0;

            // on a topic that is not compacted, an offset Kafka does not return read_committed is an aborted record or
            // a marker: in a file, a reader sees what the source aborted (it passed as information, exit 0)
            OffsetRanges notInView = OffsetRanges.of(sets.archivedNotInCommittedView, limit);
            List<AuditReport.DeadLetter> listed = letters.listed.values().stream()
                    .filter(d -> sets.deadLettered.contains(d.offset())).toList();
            partitions.add(new PartitionReport(p, k.logStart(), k.lastStable, k.from, k.until, k.present.size(),
                    sets.notInCommittedView, sets.deadLettered.size(), listed, sets.expected.size(), sets.exactlyOnce,
                    OffsetRanges.of(sets.missing, limit), notYetCommitted,
                    MissingFiles.find(p, sets.missing, manifests, contents.visible, limit),
                    OffsetRanges.of(sets.duplicated, limit),
                    DuplicateFinder.find(storage, work, config.topic(), p, sets.duplicated, found, limit),
                    OffsetRanges.of(sets.belowLogStart, limit), snapshot.compacted ? notInView : OffsetRanges.NONE,
                    snapshot.compacted ? OffsetRanges.NONE : notInView,
                    sets.outsideRange, OffsetRanges.of(sets.deadLetteredAndArchived, limit), found.files.size(),
                    found.rows, groupCommit, group.staged(), notes(k)));
        }

        List<AuditReport.StrangeFile> strangers = new ArrayList<>(contents.strangers);
        strangers.addAll(claims.unverifiable);
        strangers.sort(Comparator.comparing(AuditReport.StrangeFile::path));
        List<AuditReport.StrangeFile> unnamed = new ArrayList<>(contents.unnamed);
        unnamed.sort(Comparator.comparing(AuditReport.StrangeFile::path));
        List<AuditReport.UnreadableFile> unreadable = new ArrayList<>(contents.unreadable);
        unreadable.sort(Comparator.comparing(AuditReport.UnreadableFile::path));
        List<String> notes = new ArrayList<>(claims.notes);
        if (claims.checkedFiles > 0) {
            notes.add(claims.checkedFiles + " files are in a format without Kafka coordinates (such as raw bytes): they "
                    + "were checked through their manifests' offset ranges and record counts, not row by row");
        }
        if (snapshot.compacted) {
            notes.add("the topic is compacted: offsets Kafka no longer returns may have been compacted away as well as "
                    + "being transaction markers or aborted records");
        }
        if (deadLetters.withoutSource > 0) {
            notes.add(deadLetters.withoutSource + " records of the dead-letter topic carry no Sluice source headers "
                    + "(sluice.source.topic, .partition, .offset): they were not matched to offsets");
        }
        if (deadLetters.earlierTopic > 0) {
            notes.add((deadLetters.earlierTopic == 1 ? "1 record of the dead-letter topic was"
                    : deadLetters.earlierTopic + " records of the dead-letter topic were") + " dead-lettered from an "
                    + "earlier topic named " + config.topic() + " (deleted and created again: they name another topic ID): "
                    + "they were not taken out of this topic's expected offsets");
        }
        if (deadLetters.otherGroups > 0) {
            notes.add(deadLetters.otherGroups + " records of the dead-letter topic were dead-lettered by other "
                    + "archives (their sluice.source.group is not " + config.groupId().orElse("") + "): they were not "
                    + "taken out of this archive's expected offsets");
        }
        if (missingLetteredByOthers > 0) {
            // a renamed group: its earlier letters name the old group, and their offsets read as missing
            notes.add(missingLetteredByOthers + " of the offsets reported missing were dead-lettered by "
                    + String.join(", ", deadLetters.otherGroupNames) + ": if that was this archive under an earlier "
                    + "group name, they went to the dead-letter topic and are not lost");
        }
        if (!manifests.hasManifests(config.topic()) && contents.visibleFiles > contents.skippedFiles) {
            notes.add("the archive holds no manifests of " + config.topic() + " (archived at least once): whether the "
                    + "archiver published each file cannot be told, so files were checked by their names and rows only");
        }
        if (contents.otherRows > 0) {
            notes.add(contents.otherRows + " rows in the files read belong to other topics or to partitions not "
                    + "audited");
        }
        return new AuditReport(config.topic(), snapshot.topicId, storage.describe(), startedAt,
                (System.nanoTime() - start) / 1_000_000, config.deadLetterTopic().orElse(null),
                config.groupId().orElse(null), List.copyOf(partitions), contents.visibleFiles, contents.filesRead,
                contents.rowsRead, unreadable.size(), unreadable.stream().limit(limit).toList(), strangers.size(),
                strangers.stream().limit(limit).toList(), unnamed.size(), unnamed.stream().limit(limit).toList(),
                contents.skippedFiles, Collections.unmodifiableSortedMap(contents.otherTopics),
                claims.checkedFiles,
                List.copyOf(manifests.earlierTopicIds(config.topic())), List.copyOf(notes));
    }

    private static List<String> notes(KafkaPartition k) {
        List<String> notes = new ArrayList<>();
        if (k.requestedFrom < k.logStart() && k.requestedFrom < k.until) {
            notes.add("the range starts at " + k.requestedFrom + ", below the log start " + k.logStart() + ": offsets "
                    + k.requestedFrom + "–" + (k.logStart() - 1) + " are gone from Kafka (retention or deleteRecords) "
                    + "and are not expected");
        }
        if (k.logStartMovedDuringScan()) {
            notes.add("retention moved the log start to " + k.logStart() + " while the audit read the partition: "
                    + "records removed before they were read count as not in Kafka's committed view");
        }
        return notes;
    }

    private static DeadLetterScan await(FutureTask<DeadLetterScan> kafka) throws AuditException {
        try {
            return kafka.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AuditException audit) {
                throw audit;
            }
            throw new AuditException("reading Kafka failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kafka.cancel(true);
            throw new AuditException("interrupted while reading Kafka", e);
        }
    }

    private static Path workDirectory(AuditConfig config) throws AuditException {
        try {
            Files.createDirectories(config.workDir());
            return Files.createTempDirectory(config.workDir(), "sluice-audit-");
        } catch (IOException e) {
            throw new AuditException("cannot create a work directory under " + config.workDir() + " (files are "
                    + "downloaded there to be read): " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // only downloaded copies live there; the OS's temporary-file cleaning takes what is left
        }
    }
}
