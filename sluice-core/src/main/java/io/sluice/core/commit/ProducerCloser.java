package io.sluice.core.commit;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.Collection;
import org.apache.kafka.clients.producer.Producer;

/**
 * Lets go of producers at once, for a commit point or a sink that abandons what it had not committed: each producer
 * is closed forcefully (what it has in flight fails), on a daemon thread of its own, since a producer's close joins
 * its I/O thread without a bound, however short the timeout given; one after the other, the last would wait for all
 * of them. One thread per producer, each for as long as its close takes.
 *
 * <p>Threading: any thread; returns at once.
 */
public final class ProducerCloser {

    private ProducerCloser() {
    }

    /** Closes each of {@code producers} with no grace, each on its own thread named {@code name}-n. */
    public static void closeAtOnce(Collection<? extends Producer<?, ?>> producers, String name) {
        int n = 0;
        for (Producer<?, ?> producer : producers) {
            Thread closer = new Thread(() -> {
                try {
                    producer.close(Duration.ZERO);
                } catch (RuntimeException e) { // the others are closed all the same
                    LOG.debug("closing a producer that was let go of: {}", e.toString());
                }
            }, name + "-" + n++);
            closer.setDaemon(true);
            closer.start();
        }
    }
}
