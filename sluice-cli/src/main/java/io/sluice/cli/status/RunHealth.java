package io.sluice.cli.status;

import io.sluice.core.Engine;
import io.sluice.core.Health;
import java.util.Optional;

/**
 * What {@code /health} and {@code /ready} report on: a run's life cycle, why it failed, and how many partitions this
 * instance serves. An engine's run (an archive, a mirror) or a merge.
 *
 * <p>Threading: read from the metrics server's thread; implementations read state that is safe to read from any.
 */
public interface RunHealth {

    /** How messages name the run: "the engine", "the merge". */
    String what();

    Health health();

    /** Why the run failed, when {@link #health()} is {@link Health#FAILED}. */
    Optional<Throwable> failure();

    /** The partitions this instance reads (an engine) or merges (a merge) now. */
    int partitions();

    /** More about the state, said after it (why a run is starting again); empty when there is nothing more to say. */
    default Optional<String> note() {
        return Optional.empty();
    }

    /**
     * A run between a failure a restart cures and its next start (a mirror or merge riding out a target that is
     * down): alive, since the command starts it again by itself, but not ready. Reported FAILED, a liveness probe
     * restarted the process during the very outage the command rides out.
     */
    static RunHealth restarting(String what, String why) {
        return new RunHealth() {
            @Override
            public String what() {
                return what;
            }

            @Override
            public Health health() {
                return Health.STARTING;
            }

            @Override
            public Optional<Throwable> failure() {
                return Optional.empty();
            }

            @Override
            public int partitions() {
                return 0;
            }

            @Override
            public Optional<String> note() {
                return Optional.of("starting again after: " + why);
            }
        };
    }

    static RunHealth of(Engine engine) {
        return new RunHealth() {
            @Override
            public String what() {
                return "the engine";
            }

            /**
             * Failed from the moment the engine has a failure, not only once it stopped: its drain after a failure
             * can wait a minute on a cluster that does not answer, and read 200 DRAINING meanwhile.
             */
            @Override
            public Health health() {
                Health health = engine.health();
                return health == Health.DRAINING && engine.failure().isPresent() ? Health.FAILED : health;
            }

            @Override
            public Optional<Throwable> failure() {
                return engine.failure();
            }

            @Override
            public int partitions() {
                return engine.partitions().size();
            }
        };
    }
}
