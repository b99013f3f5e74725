package io.sluice.audit;

import io.sluice.audit.ArchivedFileReader.UnreadableFileException;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.ArchivedFormats;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Finds the files behind duplicated offsets. The first pass keeps only which offsets were seen more than once, not
 * where (that would cost memory per offset); this second pass reads again just the files whose rows span a duplicated
 * offset, and groups the duplicated offsets into runs held by the same files: a copied file is one run naming the
 * original and the copy, however its offsets interleave with other files'.
 *
 * <p>Threading: one thread.
 */
final class DuplicateFinder {

    private DuplicateFinder() {
    }

    static List<AuditReport.DuplicateRun> find(StorageBackend storage, Path workDir, String topic, int partition,
            OffsetSet duplicated, FoundPartition found, int limit) throws AuditException {
        if (duplicated.isEmpty()) {
            return List.of();
        }
        List<FoundPartition.FileSpan> candidates = found.files.stream()
                .filter(f -> {
                    long next = duplicated.next(f.lowest());
                    return next >= 0 && next <= f.highest();
                })
                .sorted(Comparator.comparing(FoundPartition.FileSpan::path))
                .toList();
        List<OffsetSet> held = new ArrayList<>();
        ArchivedFileReader reader = new ArchivedFileReader(storage, workDir);
        for (FoundPartition.FileSpan file : candidates) {
            OffsetSet offsets = new OffsetSet();
            try {
                reader.read(file.path(), ArchivedFormats.rowsOf(SluiceFileName.fileNameOf(file.path())).orElseThrow(),
                        (t, p, o) -> {
                            if (p == partition && t.equals(topic) && duplicated.contains(o)) {
                                offsets.add(o);
                            }
                        });
            } catch (IOException e) {
                throw new AuditException("cannot read the archive at " + storage.describe() + ": " + e.getMessage(), e);
            } catch (UnreadableFileException e) {
                throw new AuditException(file.path() + " could be read a moment ago and cannot now: is something "
                        + "changing the archive during the audit? " + e.getMessage(), e);
            }
            held.add(offsets);
        }
        return runs(candidates, held, limit);
    }

    /** Walks the duplicated offsets in order, each with the files holding it, merging neighbours held by the same files. */
    static List<AuditReport.DuplicateRun> runs(List<FoundPartition.FileSpan> files, List<OffsetSet> held, int limit) {
        // (next offset, file index): the files holding an offset are exactly those whose next offset it is
        PriorityQueue<long[]> next = new PriorityQueue<>(Comparator.<long[]>comparingLong(e -> e[0])
                .thenComparingLong(e -> e[1]));
        for (int i = 0; i < held.size(); i++) {
            long first = held.get(i).next(0);
            if (first >= 0) {
                next.add(new long[] {first, i});
            }
        }
        List<AuditReport.DuplicateRun> runs = new ArrayList<>();
        List<String> runFiles = null;
        long runFirst = -1;
        long runLast = -1;
        long runCount = 0;
        while (!next.isEmpty()) {
            long offset = next.peek()[0];
            List<String> holders = new ArrayList<>();
            while (!next.isEmpty() && next.peek()[0] == offset) {
                int file = (int) next.poll()[1];
                holders.add(files.get(file).path());
                long after = held.get(file).next(offset + 1);
                if (after >= 0) {
                    next.add(new long[] {after, file});
                }
            }
            if (holders.equals(runFiles)) {
                runLast = offset;
                runCount++;
                continue;
            }
            if (runFiles != null) {
                runs.add(new AuditReport.DuplicateRun(runFirst, runLast, runCount, runFiles));
                if (runs.size() == limit) {
                    return runs;
                }
            }
            runFiles = holders;
            runFirst = offset;
            runLast = offset;
            runCount = 1;
        }
        if (runFiles != null) {
            runs.add(new AuditReport.DuplicateRun(runFirst, runLast, runCount, runFiles));
        }
        return runs;
    }
}
