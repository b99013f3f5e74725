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
 * staged files), and reads the audited topic's files row by row with their format's {@link ArchivedRows}, several at a
 * time. Files are classified as they come:
 * <ul>
 *   <li>named for another topic or a partition not audited: skipped, not read;
 *   <li>a format with a reader: read; a failure makes it unreadable (a Sluice file name) or a stranger (any other);
 *   <li>no reader, but a Sluice file name of this topic: a claim, checked later against its manifest;
 *   <li>anything else: a stranger.
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

    ArchiveScan(StorageBackend storage, String topic, Set<Integer> audited, int threads, Path workDir) {
        this.storage = storage;
        this.topic = topic;
        this.audited = audited;
        this.threads = threads;
        this.workDir = workDir;
    }

    private record Read(String path, boolean sluiceName, FileRows rows, UnreadableFileException unreadable) {
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
                String fileName = SluiceFileName.fileNameOf(path);
                Optional<SluiceFileName> name = SluiceFileName.parse(fileName);
                if (name.isPresent() && (!name.get().topic().equals(topic) || !audited.contains(name.get().partition()))) {
                    contents.skippedFiles++;
                    continue;
                }
                contents.visible.add(path);
                Optional<ArchivedRows> rows = ArchivedFormats.rowsOf(fileName);
                if (rows.isEmpty()) {
                    if (name.isPresent()) {
                        contents.claims.add(new ArchiveContents.Claim(path, name.get()));
                    } else {
                        contents.strangers.add(new AuditReport.StrangeFile(path, "not a Sluice data file: no Sluice "
                                + "format has this name"));
                    }
                    continue;
                }
                reads.submit(read(reader, path, name.isPresent(), rows.get()));
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

    private Callable<Read> read(ArchivedFileReader reader, String path, boolean sluiceName, ArchivedRows format) {
        return () -> {
            FileRows rows = new FileRows(topic, audited);
            try {
                reader.read(path, format, rows);
                return new Read(path, sluiceName, rows, null);
            } catch (UnreadableFileException e) {
                return new Read(path, sluiceName, rows, e);
            }
        };
    }

    private static void merge(ArchiveContents contents, Read read) {
        if (read.unreadable() != null) {
            // a damaged file counts for nothing: its offsets show as missing, and the file is named as the cause
            String reason = read.unreadable().getMessage() + " (" + read.rows().rows + " rows read before)";
            if (read.sluiceName()) {
                contents.unreadable.add(new AuditReport.UnreadableFile(read.path(), reason));
            } else {
                contents.strangers.add(new AuditReport.StrangeFile(read.path(), "not a Sluice data file: " + reason));
            }
            return;
        }
        contents.filesRead++;
        contents.rowsRead += read.rows().rows;
        contents.otherRows += read.rows().otherRows;
        for (Map.Entry<Integer, FileRows.PartitionRows> e : read.rows().partitions.entrySet()) {
            contents.partition(e.getKey()).add(read.path(), e.getValue());
        }
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
