package io.sluice.audit;

import io.sluice.audit.ArchivedFileReader.UnreadableFileException;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.ArchivedRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The actual side: lists every visible file under the archive root (not {@code _sluice/}, which holds manifests and
 * staged files), and reads every file that could hold the audited topic's rows, row by row with its format's
 * {@link ArchivedRows}, several at a time. Files are classified as they come ({@link Provenance}):
 * <ul>
 *   <li>another topic's by a manifest of that topic, or the audited topic's of a partition not audited: not read;
 *   <li>a format with a reader: read, whatever its name; a failure makes it unreadable (the audited topic's by name)
 *       or a stranger (any other); its rows then confirm whose it is, or make it a stranger or unnamed;
 *   <li>no reader, but a sink name of the audited topic: a claim, checked later against its manifest;
 *   <li>anything else: a stranger, or unnamed.
 * </ul>
 *
 * <p>Threading: {@link #run} on the audit's thread; files are read on a pool and merged on the audit's thread.
 */
final class ArchiveScan {

    private final StorageBackend storage;
    private final String topic;
    private final Set<Integer> audited;
    private final int threads;
    private final Path workDir;
    private final Provenance provenance;
    private final AuditProgress progress;

    ArchiveScan(StorageBackend storage, String topic, Set<Integer> audited, int threads, Path workDir,
            ManifestIndex manifests, AuditProgress progress) {
        this.storage = storage;
        this.topic = topic;
        this.audited = audited;
        this.threads = threads;
        this.workDir = workDir;
        this.provenance = new Provenance(topic, audited, manifests);
        this.progress = progress;
    }

    private record Read(Provenance.Expectation expected, FileRows rows, UnreadableFileException unreadable) {
    }

    ArchiveContents run() throws IOException, AuditException {
        ArchiveContents contents = new ArchiveContents();
        ArchivedFileReader reader = new ArchivedFileReader(storage, workDir);
        ExecutorService pool = Executors.newFixedThreadPool(threads, daemonThreads());
        try {
            CompletionService<Read> reads = new ExecutorCompletionService<>(pool);
            int pending = 0;
            for (String path : storage.list("")) {
                if (path.startsWith("_sluice/") || path.endsWith("/")) {
                    continue; // manifests and staged files; and the "folder" markers some S3 tools create
                }
                contents.visibleFiles++;
                contents.visible.add(path);
                Provenance.Expectation expected = provenance.expect(path);
                if (expected.kind() == Provenance.Kind.OTHER_TOPIC) {
                    contents.otherTopic(expected.name().orElseThrow().topic());
                    continue;
                }
                if (expected.kind() == Provenance.Kind.PARTITION_NOT_AUDITED) {
                    contents.skippedFiles++;
                    continue;
                }
                Optional<ArchivedRows> rows = ArchivedFormats.rowsOf(SluiceFileName.fileNameOf(path));
                if (rows.isEmpty()) {
                    if (expected.kind() == Provenance.Kind.ARCHIVED) {
                        // its manifests vouch for it, or ClaimCheck says that none does (at least once)
                        contents.claims.add(new ArchiveContents.Claim(path, expected.name().orElseThrow()));
                    } else {
                        contents.add(path, provenance.verdictWithoutRows(expected));
                    }
                    continue;
                }
                reads.submit(read(reader, expected, rows.get()));
                pending++;
                // merge as files finish: each read file waits as bit sets until merged, so only a few may wait
                for (Future<Read> done = reads.poll(); done != null; done = reads.poll()) {
                    merge(contents, done.get());
                    pending--;
                }
                if (pending >= 4 * threads) {
                    merge(contents, reads.take().get());
                    pending--;
                }
            }
            for (; pending > 0; pending--) {
                merge(contents, reads.take().get());
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw new AuditException("cannot read the archive at " + storage.describe() + ": " + io.getMessage(), io);
            }
            throw new AuditException("reading the archive failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditException("interrupted while reading the archive", e);
        } finally {
            pool.shutdownNow();
        }
        return contents;
    }

    private Callable<Read> read(ArchivedFileReader reader, Provenance.Expectation expected, ArchivedRows format) {
        return () -> {
            FileRows rows = new FileRows(topic, audited);
            try {
                reader.read(expected.path(), format, rows);
                return new Read(expected, rows, null);
            } catch (UnreadableFileException e) {
                return new Read(expected, rows, e);
            }
        };
    }

    private void merge(ArchiveContents contents, Read read) {
        String path = read.expected().path();
        if (read.unreadable() != null) {
            // a damaged file counts for nothing: its offsets show as missing, and the file is named as the cause
            String reason = read.unreadable().getMessage() + " (" + read.rows().rows + " rows read before)";
            if (read.expected().kind() == Provenance.Kind.ARCHIVED) {
                contents.unreadable.add(new AuditReport.UnreadableFile(path, reason));
            } else {
                contents.add(path, provenance.verdictUnreadable(read.expected(), reason));
            }
            return;
        }
        Provenance.Verdict verdict = provenance.verdict(read.expected(), read.rows());
        if (verdict.otherTopic() != null) {
            contents.otherTopic(verdict.otherTopic()); // another topic's archive, at least once: its rows say so
            return;
        }
        contents.add(path, verdict);
        contents.filesRead++;
        contents.rowsRead += read.rows().rows;
        contents.otherRows += read.rows().otherRows;
        for (Map.Entry<Integer, FileRows.PartitionRows> e : read.rows().partitions.entrySet()) {
            contents.partition(e.getKey()).add(path, e.getValue());
        }
        progress.filesRead(contents.filesRead, contents.rowsRead);
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, "sluice-audit-read-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
