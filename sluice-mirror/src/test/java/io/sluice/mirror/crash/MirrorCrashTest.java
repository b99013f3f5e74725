package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.process.ChildProcess;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An exactly-once mirror in a child JVM halts at each named step of its commit protocol in turn, or is killed at a
 * seeded random moment after its first commit, while the source keeps being written; a restart (as a supervisor would) then copies to the
 * end. Whatever the step, a read_committed reader of the target sees every committed source record exactly once, in
 * order, byte for byte, the aborted source transaction nowhere, and the progress in the target is the source's end:
 * the restart's claim aborted what the halted mirror left open.
 */
@Tag("slow")
class MirrorCrashTest {

    private static final int PARTITIONS = 3;

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    /**
     * The steps an exactly-once mirror reaches while it runs: a poll dispatched to the lanes, and each step of a
     * commit (in the partitions' lanes) at its first hit (the first commits after the claim, when some partitions have
     * progress and others none) and at its fourth (a later one, the source still being written); then the steps of
     * the close, reached through a SIGTERM.
     */
    static Stream<Arguments> crashPoints() {
        Stream<Arguments> dispatch = Stream.of(Arguments.of(CrashPoints.AFTER_DISPATCH, 3, false));
        Stream<Arguments> commit = Stream.of(CrashPoints.BEFORE_COMMIT, CrashPoints.TRANSACTION_BEFORE_COMMIT,
                        CrashPoints.AFTER_COMMIT_ACK)
                .flatMap(point -> Stream.of(1, 4).map(hit -> Arguments.of(point, hit, false)));
        Stream<Arguments> closing = Stream.of(CrashPoints.CLOSE_BEFORE_COMMIT, CrashPoints.CLOSE_AFTER_COMMIT)
                .map(point -> Arguments.of(point, 1, true));
        return Stream.of(dispatch, commit, closing).flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0}:{1}")
    @MethodSource("crashPoints")
    void aHaltAtAnyStepOfTheCommitLeavesAnExactCopyAfterARestart(String point, int hit, boolean onClose)
            throws Exception {
        Run run = new Run(point.replace('.', '-') + "-" + hit);
        try (SourceTopic.Feed feed = run.topic.feed()) {
            ChildProcess child = run.start("-Dsluice.crash.at=" + point + ":" + hit);
            if (onClose) {
                run.awaitFirstCommit();
                child.stop(Duration.ofSeconds(30)); // SIGTERM: the drain reaches the close crash points
            }
            assertHalted(child, point + ":" + hit);
        }
        run.finishAndCheck();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261125L, 13L})
    void aKillAtASeededRandomMomentLeavesAnExactCopyAfterARestart(long seed) throws Exception {
        long delayMillis = 300 + new Random(seed).nextInt(3_000);
        System.out.println("[mirror-crash-test] seed " + seed + ": kill -9 " + delayMillis
                + " ms after the first commit");
        Run run = new Run("random-" + seed);
        try (SourceTopic.Feed feed = run.topic.feed()) {
            ChildProcess child = run.start();
            // counted from the first commit, so that the kill lands while transactions are being committed, not in
            // the start (a child's start took seconds in CI), which the named crash points cover anyway
            run.awaitFirstCommit();
            TimeUnit.MILLISECONDS.sleep(delayMillis);
            child.kill();
        }
        run.finishAndCheck();
    }

    /** The child halts at its crash point within a minute (it is killed if not, so no child outlives the test). */
    private static void assertHalted(ChildProcess child, String point) {
        OptionalInt status = child.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            child.kill();
        }
        assertEquals(OptionalInt.of(CrashPoints.HALT_STATUS), status, () -> "halted at " + point + "\n" + child.tail());
    }

    /** A source topic with a committed and an aborted transaction, and the mirror of it. */
    private final class Run {
        final SourceTopic topic;
        final String name;
        final MirrorConfig config;

        Run(String point) {
            topic = new SourceTopic(clusters.source(), "mcrash-" + point, PARTITIONS);
            topic.produce(150);
            topic.commitAndAbort(30);
            topic.produce(150);
            name = Names.unique("mcrash");
            config = MirrorChild.config(MirrorChild.clientOf(clusters.source()),
                    MirrorChild.clientOf(clusters.target()), topic.name(), name, "crashing").build();
        }

        void awaitFirstCommit() throws InterruptedException {
            TargetState.await("progress committed in the target", Duration.ofSeconds(60),
                    () -> !TargetState.committed(clusters.target(), config, topic.name(), PARTITIONS).isEmpty());
        }

        ChildProcess start(String... jvmOptions) {
            return MirrorChild.start(clusters, topic.name(), name, "crashing", List.of(jvmOptions));
        }

        /** The restart, here, with the same group instance ID: it takes the partitions at once and copies to the end. */
        void finishAndCheck() throws Exception {
            MirrorConfig toEnd = MirrorChild.config(MirrorChild.clientOf(clusters.source()),
                    MirrorChild.clientOf(clusters.target()), topic.name(), name, "crashing").untilEnd(true).build();
            try (Mirror restart = Mirror.start(toEnd)) {
                assertTrue(restart.awaitTermination(Duration.ofSeconds(60)), "the restart copied to the end");
                assertEquals(Health.STOPPED, restart.engine().health(),
                        () -> "the restart failed: " + restart.engine().failure().orElse(null));
            }
            TargetState.assertExactlyOnce(clusters, config, topic);
        }
    }
}
