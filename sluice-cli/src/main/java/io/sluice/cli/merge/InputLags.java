package io.sluice.cli.merge;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeProgress;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A merge's lag summed per input: input end offsets minus committed positions, over every output partition.
 *
 * <p>Immutable.
 *
 * @param inputs the inputs' names, in the configured order
 * @param lags    each input's lag, in the same order, over the partitions whose end is known
 * @param unknown per input, how many partitions' ends its cluster did not give in time
 * @param rows    per input, how many partitions were read
 */
record InputLags(List<String> inputs, long[] lags, int[] unknown, int[] rows) {

    static InputLags of(MergeConfig config, List<MergeProgress.InputLag> rows) {
        List<String> names = config.inputs().stream().map(i -> i.name()).toList();
        long[] lags = new long[names.size()];
        int[] unknown = new int[names.size()];
        int[] read = new int[names.size()];
        for (MergeProgress.InputLag row : rows) {
            lags[names.indexOf(row.input())] += row.lag();
            unknown[names.indexOf(row.input())] += row.known() ? 0 : 1;
            read[names.indexOf(row.input())]++;
        }
        return new InputLags(names, lags, unknown, read);
    }

    long total() {
        return java.util.Arrays.stream(lags).sum();
    }

    /**
     * The lag for the progress line: the known total, but unknown (-1) when it is 0 while some partition's end is
     * unknown: "caught up" then would say what nobody knows (every partition of an input without a leader read as
     * "caught up").
     */
    long lineTotal() {
        return total() == 0 && java.util.Arrays.stream(unknown).sum() > 0 ? -1 : total();
    }

    long of(int input) {
        return lags[input];
    }

    /** For the input's gauge: its known lag, or NaN when its cluster gave no partition's end (it does not answer). */
    double gauge(int input) {
        return rows[input] > 0 && unknown[input] == rows[input] ? Double.NaN : lags[input];
    }

    /**
     * {@code west 10, east 0}; an input with partitions whose end its cluster did not give: {@code west 10 and 1
     * partition unknown}.
     */
    String perInput() {
        return java.util.stream.IntStream.range(0, inputs.size())
                .mapToObj(i -> inputs.get(i) + " " + io.sluice.cli.console.Units.count(lags[i])
                        + (unknown[i] == 0 ? "" : " and " + unknown[i] + (unknown[i] == 1 ? " partition" : " partitions")
                                + " unknown"))
                .collect(Collectors.joining(", "));
    }
}
