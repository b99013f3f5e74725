package io.sluice.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * What the readable files hold for one partition: each offset seen, those seen more than once, and where each file's
 * rows lie (to find the files behind duplicates without keeping every file's offsets).
 *
 * <p>Threading: filled by the audit's thread only (files are merged in one at a time).
 */
final class FoundPartition {

    /** The rows of one file for this partition: how many, and their lowest and highest offsets. */
    record FileSpan(String path, long lowest, long highest, long rows) {
    }

    final OffsetSet seen = new OffsetSet();
    final OffsetSet seenAgain = new OffsetSet();
    final List<FileSpan> files = new ArrayList<>();
    long rows;

    void add(String path, FileRows.PartitionRows file) {
        seen.addAll(file.offsets, seenAgain);
        seenAgain.addAll(file.repeated);
        files.add(new FileSpan(path, file.lowest, file.highest, file.rows));
        rows += file.rows;
    }
}
