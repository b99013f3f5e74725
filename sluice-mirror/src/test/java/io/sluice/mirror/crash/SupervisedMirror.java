package io.sluice.mirror.crash;

import io.sluice.core.Health;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A mirror kept running as a supervisor (systemd, Kubernetes) would: when it stops by itself, after a failure it
 * cannot ride out, it is closed and started again, as often as needed. A start that fails (a cluster still
 * unreachable) is tried again too.
 *
 * <p>Threading: the test's thread only.
 */
final class SupervisedMirror implements AutoCloseable {

    private final MirrorConfig config;
    private Mirror mirror;
    private int restarts;

    SupervisedMirror(MirrorConfig config) {
        this.config = config;
        this.mirror = Mirror.start(config);
    }

    /** Waits until the progress in the target is the source's end, restarting the mirror whenever it stopped. */
    void awaitEnd(Clusters clusters, SourceTopic topic, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!TargetState.atEnd(clusters, config, topic)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the mirror did not reach the source's end of " + topic.name() + " within "
                        + timeout.toSeconds() + " s (" + restarts + " restarts): progress "
                        + TargetState.committed(clusters.target(), config, topic.name(), topic.endOffsets().size())
                        + ", source ends " + topic.endOffsets());
            }
            restartIfStopped();
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /** How often the mirror had to be started again. */
    int restarts() {
        return restarts;
    }

    private void restartIfStopped() {
        if (mirror != null) {
            Health health = mirror.engine().health();
            if (health != Health.STOPPED && health != Health.FAILED) {
                return;
            }
            System.out.println("[supervised-mirror] " + config.name() + " " + health + ": "
                    + mirror.engine().failure().map(Object::toString).orElse("no failure") + "; restarting");
            mirror.close();
            mirror = null;
        }
        try {
            mirror = Mirror.start(config);
            restarts++;
        } catch (RuntimeException e) {
            System.out.println("[supervised-mirror] " + config.name() + " cannot start yet: " + e);
        }
    }

    @Override
    public void close() {
        if (mirror != null) {
            mirror.close();
        }
    }
}
