package io.sluice.reassign.cluster;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.apache.kafka.common.KafkaFuture;

/**
 * Waits for an admin call and turns its failure into a {@link ClusterException} that says what was being done.
 *
 * <p>Threading: stateless.
 */
public final class AdminCalls {

    private static final long TIMEOUT_SECONDS = 60;
    /** How long one try of a question any broker may answer waits before the next goes to another broker. */
    static final int TRY_MILLIS = 10_000;

    private AdminCalls() {
    }

    /**
     * A question any broker may answer (the cluster's brokers, the moves under way), asked so that one broker holding
     * it does not hold the caller: Kafka's admin client sends it to one broker, and a frozen one (SIGSTOP, a long
     * pause) holds it without an answer. Each try gets {@link #TRY_MILLIS}; the admin client then drops its connection
     * to the broker that did not answer, and the next try goes to another. Tries go on for the minute one call had.
     * A run asked "which moves are under way" and "which brokers are there" a frozen destination broker, and stood still
     * for a minute without a line, then ended ("no answer within 60 s"; a new user's run, 1 of 3).
     *
     * @param ask the question, given the milliseconds a try may take
     */
    public static <T> T getFromAnyBroker(IntFunction<KafkaFuture<T>> ask, String doing) {
        return fromAnyBroker(millis -> get(ask.apply(millis), doing), doing);
    }

    /**
     * As {@link #getFromAnyBroker}, for a question of several answers (one per topic) that {@code attempt} gathers,
     * throwing a {@link ClusterException} as {@link #get} does; a try that timed out is made again.
     */
    public static <T> T fromAnyBroker(IntFunction<T> attempt, String doing) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (true) {
            try {
                return attempt.apply(TRY_MILLIS);
            } catch (ClusterException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException)) {
                    throw e;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new ClusterException("cannot " + doing + ": no broker answered within " + TIMEOUT_SECONDS
                            + " s", e.getCause());
                }
            }
        }
    }

    public static <T> T get(KafkaFuture<T> future, String doing) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new ClusterException("cannot " + doing + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new ClusterException("cannot " + doing + ": no answer within " + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while trying to " + doing, e);
        }
    }
}
