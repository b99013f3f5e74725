package io.sluice.reassign.execute;

import java.time.Duration;
import java.util.Optional;

/**
 * How far a run is: partitions done of all, bytes copied into new replicas of all to copy, and the time so far.
 *
 * <p>Immutable.
 */
public record MoveProgress(int partitionsDone, int partitions, long bytesCopied, long bytes, Duration elapsed) {

    /** The time left at the average rate so far; empty until something was copied. */
    public Optional<Duration> eta() {
        if (bytesCopied <= 0 || elapsed.isZero()) {
            return Optional.empty();
        }
        double perMilli = (double) bytesCopied / elapsed.toMillis();
        return Optional.of(Duration.ofMillis((long) (Math.max(0, bytes - bytesCopied) / perMilli)));
    }
}
