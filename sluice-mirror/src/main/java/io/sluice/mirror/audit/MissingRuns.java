package io.sluice.mirror.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * The source offsets found without a copy so far, as runs of consecutive source records, so that a copy arriving
 * later (out of order) can be told from a second copy. Memory grows with the number of runs, not of records: a
 * partition missing a million records in one stretch holds one run.
 *
 * <p>A run spans the offsets between its records too (transaction markers, aborted or compacted records); a copy of
 * such an offset cannot come from a mirror, and would be taken for a late copy.
 *
 * <p>Threading: one thread.
 */
final class MissingRuns {

    private final List<long[]> runs = new ArrayList<>();
    private boolean extendLast;

    /** {@code offset} has no copy; offsets come in increasing order. */
    void add(long offset) {
        if (extendLast) {
            runs.get(runs.size() - 1)[1] = offset;
        } else {
            runs.add(new long[] {offset, offset});
            extendLast = true;
        }
    }

    /** A source record with a copy came: the next missing one starts a new run. */
    void interrupt() {
        extendLast = false;
    }

    /** Takes {@code offset} out of the runs if it was missing (its copy came late); whether it was. */
    boolean remove(long offset) {
        int low = 0;
        int high = runs.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            long[] run = runs.get(mid);
            if (offset < run[0]) {
                high = mid - 1;
            } else if (offset > run[1]) {
                low = mid + 1;
            } else {
                split(mid, run, offset);
                return true;
            }
        }
        return false;
    }

    private void split(int index, long[] run, long offset) {
        boolean last = index == runs.size() - 1;
        if (run[0] == run[1]) {
            runs.remove(index);
            if (last) {
                extendLast = false;
            }
        } else if (offset == run[0]) {
            run[0] = offset + 1;
        } else if (offset == run[1]) {
            run[1] = offset - 1;
            if (last) {
                extendLast = false; // the next missing record is not next to the run any more
            }
        } else {
            runs.add(index + 1, new long[] {offset + 1, run[1]});
            run[1] = offset - 1;
        }
    }
}
