package io.sluice.merge.order;

/**
 * Where a record goes in the merged stream: by event time, then by the input's place in the configuration, then by
 * offset. The last two make the order total, so the same input records always merge into the same output, whatever
 * the timing of the reads.
 */
public record MergeKey(long time, int input, long offset) implements Comparable<MergeKey> {

    /** Below every key: nothing emitted yet. */
    public static final MergeKey NONE = new MergeKey(Long.MIN_VALUE, -1, -1);

    @Override
    public int compareTo(MergeKey other) {
        int c = Long.compare(time, other.time);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(input, other.input);
        return c != 0 ? c : Long.compare(offset, other.offset);
    }

    public boolean isBefore(MergeKey other) {
        return compareTo(other) < 0;
    }
}
