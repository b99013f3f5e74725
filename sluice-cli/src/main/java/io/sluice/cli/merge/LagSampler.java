package io.sluice.cli.merge;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeProgress;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running merge's lag for its progress line and meters, read from the clusters every {@code every} on a thread of its
 * own (each reading is a round trip to every cluster, and waits up to its timeout for one that does not answer: read
 * on the progress line's thread, a cluster down held every tick of the line for seconds, and the target watch, which
 * looks at each tick, took the gaps for this process not running and never spoke).
 *
 * <p>Threading: its own thread reads; {@link #last} from any thread; {@link #close} once.
 */
final class LagSampler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");

    private final MergeConfig config;
    private final MergeProgress progress;
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sluice-merge-lag");
        t.setDaemon(true);
        return t;
    });
    private volatile InputLags last;

    /** Starts reading at once, then {@code every} after each reading ends. */
    LagSampler(MergeConfig config, MergeProgress progress, Duration every) {
        this.config = config;
        this.progress = progress;
        reader.scheduleWithFixedDelay(this::read, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void read() {
        try {
            last = InputLags.of(config, progress.read());
        } catch (Exception e) {
            LOG.debug("merge lag not read: {}", e.toString());
            last = null;
        }
    }

    /** The last reading; null while the lag is unknown (not read yet, or a cluster did not answer). */
    InputLags last() {
        return last;
    }

    /** Stops reading; a reading under way ends with the clients' close (its answer is dropped). */
    @Override
    public void close() {
        reader.shutdownNow();
    }
}
