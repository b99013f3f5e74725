package io.sluice.cli.pipeline;

import io.sluice.cli.config.Sizes;
import java.util.Locale;
import java.util.Optional;

/**
 * The memory budget a JVM's heap can hold, so that no budget a pipeline file may set ends in OutOfMemoryError
 * (issue 17): without {@code processing.memory-budget} the budget is derived from the heap; one that is set must fit.
 *
 * <p>The budget bounds what the engine and the sink count (records queued and being written, the open files' buffers:
 * {@code docs/rolling.md}), but the heap holds more: the JVM and the Kafka clients, and the young generation's room for
 * a busy run's garbage (a third of the heap with the serial collector). Measured with {@code sluice run} on 4
 * partitions of 1 KB JSON records, each partition writing to 64 folders at once (64 open files each, JSON Lines + zstd,
 * serial collector, {@code HeapAndBudgetTest}), with a 16 MiB budget: the live heap after a full collection peaked at
 * 42 MB, the budget's count at its 16 MiB. (Before two fixes it was 97 MB and the count 29 MiB, and -Xmx80m died of
 * OutOfMemoryError: sealed files' buffers stayed reachable from zstd's finalizable streams, and partitions opened files
 * past the sink's limit: {@code Codec}, {@code RollDecision}.) Twice the budget plus {@value #RESERVE_MIB} MiB keeps a
 * margin over that: 88 MiB for 16 MiB, where 8 MiB ran in 76 MiB and 64 MiB in 200 MiB.
 *
 * <p>Stateless.
 */
public final class HeapBudget {

    /** The heap besides twice the budget: the JVM, the Kafka clients and a busy run's garbage, in MiB. */
    static final long RESERVE_MIB = 56;
    /** The smallest budget a run works with: a few records of a few partitions and their open files. */
    static final long MIN_BUDGET = 8L << 20;
    private static final long MIB = 1L << 20;

    private HeapBudget() {
    }

    /** The heap, in bytes, that a budget of {@code budget} bytes needs. */
    public static long heapNeeded(long budget) {
        return 2 * budget + RESERVE_MIB * MIB;
    }

    /**
     * The budget for a heap of {@code maxHeap} bytes when the pipeline sets none: the most it holds, up to the engine's
     * own default, in whole MiB; below {@link #MIN_BUDGET} when the heap is too small for a run.
     */
    public static long derived(long maxHeap, long engineDefault) {
        long fits = Math.max(0, (maxHeap - RESERVE_MIB * MIB) / 2) / MIB * MIB;
        return Math.min(engineDefault, fits);
    }

    /**
     * Why a budget of {@code budget} bytes cannot run in a heap of {@code maxHeap} bytes, with the fix; empty when it
     * can.
     *
     * @param set whether the pipeline file sets the budget (else it was derived from the heap)
     */
    public static Optional<String> problem(long budget, long maxHeap, boolean set) {
        long needed = heapNeeded(Math.max(budget, MIN_BUDGET));
        if (budget >= MIN_BUDGET && needed <= maxHeap) {
            return Optional.empty();
        }
        String heap = "this JVM's heap of " + mib(maxHeap) + " (its -Xmx, less what the collector keeps aside)";
        String more = "give the JVM more heap, e.g. SLUICE_JAVA_OPTS=-Xmx" + Math.max(256, ceilMib(needed))
                + "m ./sluice ...";
        if (!set) {
            return Optional.of(heap + " is too small for a run: it needs at least " + mib(heapNeeded(MIN_BUDGET))
                    + " (twice the smallest memory budget, " + mib(MIN_BUDGET) + ", plus " + RESERVE_MIB
                    + " MiB for the JVM and the Kafka clients); " + more);
        }
        if (budget < MIN_BUDGET) {
            return Optional.of(mib(budget) + " is below the smallest budget a run works with, " + mib(MIN_BUDGET));
        }
        long fits = derived(maxHeap, Long.MAX_VALUE);
        return Optional.of(mib(budget) + " does not fit in " + heap + ": a budget needs twice its size plus "
                + RESERVE_MIB + " MiB of heap, here " + mib(needed) + " (records arrive past the budget while "
                + "partitions pause, and the JVM and the Kafka clients need their part). "
                + (fits >= MIN_BUDGET ? "Lower it to at most " + Sizes.format(fits) + ", or " + more
                        : Character.toUpperCase(more.charAt(0)) + more.substring(1)));
    }

    /** In whole MiB, rounded down: a heap is never shown as more than it is. */
    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,d MiB", bytes / MIB);
    }

    private static long ceilMib(long bytes) {
        return (bytes + MIB - 1) / MIB;
    }
}
