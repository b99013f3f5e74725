package io.sluice.reassign.cluster;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;

/**
 * Waits for an admin call and turns its failure into a {@link ClusterException} that says what was being done.
 *
 * <p>Threading: stateless.
 */
public final class AdminCalls {

    private static final long TIMEOUT_SECONDS = 60;

    private AdminCalls() {
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
