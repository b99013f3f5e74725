package io.sluice.reassign.execute;

import java.time.Duration;

/**
 * How {@code execute} runs a plan: the replication throttle (0: none), how many partitions move at once, whether
 * and with what allowance the retention guard applies, the disk headroom (for which moves are tight), and how often
 * progress is read.
 *
 * <p>Immutable.
 */
public record ExecuteOptions(long throttleBytesPerSecond, int batchSize, boolean retentionGuard, double allowance,
        double maxDiskUse, Duration poll) {

    /** Within this share of the disk headroom, a move is tight and its topics get the retention guard. */
    public static final double TIGHT_MARGIN = 0.10;

    public ExecuteOptions {
        if (batchSize < 1) {
            throw new IllegalArgumentException("the batch size must be at least 1, not " + batchSize);
        }
        if (throttleBytesPerSecond < 0) {
            throw new IllegalArgumentException("the throttle must not be negative");
        }
        if (!(allowance >= 1)) {
            // below 1 the guard's limit is under the largest partition's size: the brokers delete its oldest records
            // at once, records no retention had made due (a user's 0.5, meant as "50% more", halved a topic)
            throw new IllegalArgumentException("the retention allowance is a factor of at least 1 over the largest "
                    + "partition's size (1.10 lets each partition grow 10% during the move), not " + allowance
                    + ": below 1 the guard would delete records that are not due");
        }
    }
}
