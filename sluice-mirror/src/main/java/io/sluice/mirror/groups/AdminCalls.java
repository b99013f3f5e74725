package io.sluice.mirror.groups;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaFuture;

/**
 * Waits for an admin client's answer and turns a failure into an exception that says what could not be done; the
 * broker's exception stays its cause (a caller may look for one it expects).
 *
 * <p>Stateless.
 */
final class AdminCalls {

    private AdminCalls() {
    }

    static <T> T await(KafkaFuture<T> answer, String what, Duration timeout) {
        try {
            return answer.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("cannot " + what + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while trying to " + what, e);
        }
    }
}
