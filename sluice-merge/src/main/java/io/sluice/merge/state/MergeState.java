package io.sluice.merge.state;

import io.sluice.merge.order.MergeKey;
import java.util.Arrays;

/**
 * What a commit of one output partition says, and all a restart needs to go on exactly where it stopped: per input,
 * the next offset not yet settled (emitted, sent aside or dead-lettered), the key of the last record emitted (records
 * below it are late, also after a restart), and how many records were merged (emitted, late ones included).
 * Immutable.
 */
public record MergeState(long[] positions, MergeKey last, long emitted) {

    public MergeState {
        positions = positions.clone();
    }

    /** Nothing merged yet: every input from {@code start} (its first offset, or a chosen start). */
    public static MergeState initial(long[] start) {
        return new MergeState(start, MergeKey.NONE, 0);
    }

    @Override
    public long[] positions() {
        return positions.clone();
    }

    public long position(int input) {
        return positions[input];
    }

    public int inputs() {
        return positions.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MergeState s && Arrays.equals(positions, s.positions) && last.equals(s.last)
                && emitted == s.emitted;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(positions) * 31 + last.hashCode() * 17 + Long.hashCode(emitted);
    }

    @Override
    public String toString() {
        return describe(null);
    }

    /**
     * In the merge's log lines ("claimed, from ..."): words, not the key's record form, with the inputs named as the
     * merge file names them.
     *
     * @param inputs the inputs' names in order, or null to number them
     */
    public String describe(java.util.List<String> inputs) {
        StringBuilder b = new StringBuilder("positions ");
        for (int i = 0; i < positions.length; i++) {
            b.append(i == 0 ? "" : ", ").append(inputs == null ? "input " + i : inputs.get(i)).append(' ')
                    .append(positions[i]);
        }
        return b.append("; ").append(last.equals(MergeKey.NONE) ? "nothing emitted yet" : "last emitted: time "
                + last.time() + " from " + (inputs == null ? "input " + last.input() : inputs.get(last.input()))
                + " at offset " + last.offset()).append(", ").append(String.format(java.util.Locale.ROOT, "%,d",
                        emitted)).append(" emitted").toString();
    }
}
