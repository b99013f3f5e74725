package io.sluice.cli.merge;

import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeProgress;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running merge's lag for its progress line and meters, read from the clusters at most every {@code every} (each
 * reading is a round trip to every cluster); the last reading in between.
 *
 * <p>Threading: {@link #sample} on the run's thread; {@link #last} from any thread (the metrics endpoint's).
 */
final class LagSampler {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");

    private final MergeConfig config;
    private final MergeProgress progress;
    private final long every;
    private long sampledAt;
    private volatile InputLags last;

    LagSampler(MergeConfig config, MergeProgress progress, Duration every) {
        this.config = config;
        this.progress = progress;
        this.every = every.toNanos();
    }

    /** A fresh reading when one is due; null while the lag is unknown (not read yet, or a cluster did not answer). */
    InputLags sample() {
        long now = System.nanoTime();
        if (sampledAt != 0 && now - sampledAt < every) {
            return last;
        }
        sampledAt = now;
        try {
            last = InputLags.of(config, progress.read());
        } catch (Exception e) {
            LOG.debug("merge lag not read: {}", e.toString());
            last = null;
        }
        return last;
    }

    InputLags last() {
        return last;
    }
}
