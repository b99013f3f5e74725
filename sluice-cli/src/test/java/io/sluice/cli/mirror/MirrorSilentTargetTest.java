package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.CliChild;
import io.sluice.cli.ExitStatus;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice mirror} while the target does not answer with a commit under way, or a stop asked for: the wait is
 * said, and a stop is at once. (Split from {@link MirrorTargetOutageTest}, so that the test JVMs share the outage
 * tests' minutes evenly.)
 */
class MirrorSilentTargetTest {

    private final OutageMirrors mirrors = new OutageMirrors();

    /**
     * A commit that waits on a target gone silent after every copy was acknowledged: nothing is buffered and no send is
     * under way, so the watch saw nothing waiting and the run said nothing until the commit gave up (max.block.ms, a
     * minute by default). Held at the step before the commit, with the copies and offsets in the transaction, the
     * target stops; the commit that then waits on it is said.
     */
    @Test
    void aCommitWaitingOnATargetThatStoppedAfterEveryCopyWasAcknowledgedIsSaid() throws Exception {
        String topic = mirrors.topicOf100("silent-commit");
        Path dir = TestDirs.newDir("mirror-silent-commit");
        Path release = dir.resolve("release");
        List<String> jvm = mirrors.pausedBeforeCommitUntil(release);
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-silent-commit").start()) {
            // the commit waits for the target as long as the test keeps it down, not a minute (Kafka's default)
            Path file = mirrors.mirrorFile(dir, topic, target, "exactly-once", "  properties:",
                    "    max.block.ms: 180000", OutageMirrors.REQUEST_TIMEOUT);
            try (CliChild mirror = CliChild.start(dir, jvm, "mirror", file.toString(), "--progress-every", "1s")) {
                // the checkpoint before this step waited for its last copy, and the offsets joined the transaction:
                // nothing is buffered, only the commit is left
                mirror.awaitOutput(CrashPoints.PAUSED + CrashPoints.TRANSACTION_BEFORE_COMMIT, Duration.ofSeconds(60));
                target.node(1).stop();
                // held at the step, the commit counts as waiting too: what is said must come while the target is down
                assertFalse(mirror.output().contains("no answer from the target cluster"), mirror.output());
                Files.createFile(release);
                mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for "
                        + OutageMirrors.SILENT_AFTER, Duration.ofSeconds(45));
                target.node(1).start();
                mirror.awaitOutput("the target cluster (" + target.bootstrapServers() + ") answers again",
                        Duration.ofSeconds(60));
                mirrors.awaitCopies(target, topic, 100, true);
                mirror.terminate();
                assertEquals(ExitStatus.OK, mirror.exitStatus(Duration.ofSeconds(60)), mirror.output());
            }
        }
    }

    /**
     * Ctrl-C while the target does not answer took 35–66 s (each step of the drain waited out its 30 s) and ended with
     * exit 1 "stopped with an error", though the help promises exit 0 and nothing was lost. Now the stop is at once,
     * exit 0, and says what was left and why; the next run copies it (at least once here: exactly once has the same
     * drain, in {@code StopDuringTargetOutageTest}).
     */
    @Test
    void aStopAskedForWhileTheTargetDoesNotAnswerIsAtOnceAndTheNextRunCopiesWhatWasLeft() throws Exception {
        String topic = Names.unique("stop-outage");
        mirrors.source.createTopic(topic, 2);
        TestRecords.produceNumbered(mirrors.source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        Path dir = TestDirs.newDir("mirror-stop-outage");
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-outage").start()) {
            Path file = mirrors.mirrorFile(dir, topic, target, "at-least-once", "  properties:",
                    OutageMirrors.REQUEST_TIMEOUT);
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                mirrors.awaitCopies(target, topic, 100, false);
                target.node(1).stop();
                TestRecords.produceNumbered(mirrors.source.clientProperties(Listener.PLAINTEXT), topic, 100, 100);
                mirrors.assertStopsAtOnceOnceSaidSilent(mirror, target);
                assertTrue(mirror.output().contains("What was read since the last commit was let go of. Some of "
                        + "their copies may be in the target already; a restart copies them again"), mirror.output());
            }
            target.node(1).start();
            Cli.Result rest = Cli.run("mirror", file.toString(), "--until-end");
            assertEquals(ExitStatus.OK, rest.status(), rest.out() + rest.err());
            Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            mirrors.awaitCopies(target, topic, 200, false);
        }
    }

    /**
     * The same stop while a commit is under way on the silent target (exactly once: held at the step before the
     * commit, the target stops, then the commit is let go): the abandon does not cut a commit under way short, and the
     * close waited for its lane until the commit's own timeout (max.block.ms, a minute). Now nothing waits for it, and
     * the stop does not claim that the commit let go of did not land.
     */
    @Test
    void aStopWhileACommitWaitsOnTheSilentTargetIsAtOnce() throws Exception {
        String topic = mirrors.topicOf100("stop-commit");
        Path dir = TestDirs.newDir("mirror-stop-commit");
        Path release = dir.resolve("release");
        List<String> jvm = mirrors.pausedBeforeCommitUntil(release);
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-commit").start()) {
            Path file = mirrors.mirrorFile(dir, topic, target, "exactly-once", "  properties:",
                    OutageMirrors.REQUEST_TIMEOUT);
            try (CliChild mirror = CliChild.start(dir, jvm, "mirror", file.toString(), "--progress-every", "1s")) {
                mirror.awaitOutput(CrashPoints.PAUSED + CrashPoints.TRANSACTION_BEFORE_COMMIT, Duration.ofSeconds(60));
                target.node(1).stop();
                Files.createFile(release);
                mirrors.assertStopsAtOnceOnceSaidSilent(mirror, target);
                // the commit let go of was under way: it may have landed, and the words say so (they said it did not)
                assertTrue(mirror.output().contains("Their copies are in transactions whose commit was not seen: each "
                        + "commits with its progress (one under way may still have landed) or is aborted by the next "
                        + "start"), mirror.output());
            }
            target.node(1).start();
            Cli.Result rest = Cli.run("mirror", file.toString(), "--until-end");
            assertEquals(ExitStatus.OK, rest.status(), rest.out() + rest.err());
            mirrors.awaitCopies(target, topic, 100, true);
        }
    }
}
