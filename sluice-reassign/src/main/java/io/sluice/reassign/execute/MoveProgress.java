package io.sluice.reassign.execute;

import java.time.Duration;
import java.util.Optional;
import java.util.Set;

/**
 * How far a run is: partitions done of all, bytes copied into new replicas of all to copy, the bytes already copied
 * when this run began (a resumed run's, or what a cancelled run left on the destinations), the time so far, and the
 * destination brokers that do not answer (the moves that copy to them wait).
 *
 * <p>Immutable.
 */
public record MoveProgress(int partitionsDone, int partitions, long bytesCopied, long bytes, long bytesAtStart,
        Duration elapsed, Set<Integer> waitingFor) {

    public MoveProgress {
        waitingFor = Set.copyOf(waitingFor);
    }

    /**
     * The time left at this run's average rate; empty until this run copied something, and while a destination broker
     * does not answer: the rate then falls with every poll and the time left grew without end, where the run waits for
     * the broker, not for bytes.
     */
    public Optional<Duration> eta() {
        long copiedHere = bytesCopied - bytesAtStart;
        if (copiedHere <= 0 || elapsed.toMillis() <= 0 || !waitingFor.isEmpty()) {
            return Optional.empty();
        }
        double perMilli = (double) copiedHere / elapsed.toMillis();
        return Optional.of(Duration.ofMillis((long) (Math.max(0, bytes - bytesCopied) / perMilli)));
    }
}
