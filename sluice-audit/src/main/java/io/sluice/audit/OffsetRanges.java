package io.sluice.audit;

import java.util.ArrayList;
import java.util.List;

/**
 * A set of offsets as the report shows it: how many, in how many runs of consecutive offsets, where they lie, and the
 * first runs (up to the list limit) as inclusive ranges.
 *
 * <p>Threading: immutable.
 */
public record OffsetRanges(long offsets, long runs, long lowest, long highest, List<Span> listed) {

    /** Offsets {@code first} to {@code last}, both included. */
    public record Span(long first, long last) {

        public long count() {
            return last - first + 1;
        }

        @Override
        public String toString() {
            return first == last ? Long.toString(first) : first + "–" + last;
        }
    }

    public static final OffsetRanges NONE = new OffsetRanges(0, 0, -1, -1, List.of());

    static OffsetRanges of(OffsetSet set, int limit) {
        if (set.isEmpty()) {
            return NONE;
        }
        List<Span> listed = new ArrayList<>();
        long[] runs = {0};
        long[] highest = {-1};
        set.forEachRun((first, last) -> {
            runs[0]++;
            highest[0] = last;
            if (listed.size() < limit) {
                listed.add(new Span(first, last));
            }
        });
        return new OffsetRanges(set.size(), runs[0], listed.get(0).first(), highest[0], List.copyOf(listed));
    }

    public boolean isEmpty() {
        return offsets == 0;
    }

    /** Whether some runs are not listed. */
    public boolean truncated() {
        return listed.size() < runs;
    }
}
