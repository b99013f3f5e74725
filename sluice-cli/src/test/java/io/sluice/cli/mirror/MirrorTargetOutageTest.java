package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.CliChild;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import io.sluice.core.crash.CrashPoints;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A target cluster down for longer than the mirror's producer waits ended {@code sluice mirror} with exit 1, even
 * once the target was back (a new user's run: every outage over about 60 s). Now the mirror starts its engine again,
 * and again while the target stays down, and goes on from the committed progress when it answers: every record once
 * exactly once, and at least once (whose flush waited in vain).
 * The producer's waits are lowered here to a few seconds, so that a short outage outlasts them; a start's wait for
 * the target follows {@code max.block.ms} (30 s unless set).
 */
class MirrorTargetOutageTest {

    private final KafkaCluster source = SharedKafka.cluster();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"exactly-once", "at-least-once"})
    void aTargetDownLongerThanTheProducerWaitsIsRiddenOutAndEveryRecordArrivesOnce(String delivery) throws Exception {
        String topic = Names.unique("outage");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 200);
        Path dir = TestDirs.newDir("mirror-target-outage");
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-outage").start()) {
            Path file = mirrorFile(dir, topic, target, delivery,
                    "  properties:",
                    "    max.block.ms: 3000",
                    "    request.timeout.ms: 1000",
                    "    delivery.timeout.ms: 3000",
                    "    transaction.timeout.ms: 5000");
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                boolean exactlyOnce = delivery.equals("exactly-once");
                awaitCopies(target, topic, 200, exactlyOnce);
                target.node(1).stop();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 200, 100);
                // the engine fails once its producer gives up, and the start after it fails too while the target is down
                mirror.awaitOutput("starting the mirror again in 5 s", Duration.ofSeconds(60));
                mirror.awaitOutput("the mirror could not start again", Duration.ofSeconds(90));
                target.node(1).start();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 300, 100);
                awaitCopies(target, topic, 400, exactlyOnce);
                mirror.terminate();
                assertEquals(ExitStatus.OK, mirror.exitStatus(Duration.ofSeconds(60)), mirror.output());
                if (exactlyOnce) { // the whole command's copies, not the last engine's only
                    assertTrue(mirror.output().contains("stopped cleanly: 400 records copied and committed"),
                            mirror.output());
                }
            }
            Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            assertTrue(verify.out().contains("CLEAN: the target holds every committed source record"), verify.out());
        }
    }

    /**
     * A target down for less than the producers' waits (their defaults: two minutes) was ridden out in silence: the line
     * read "0 rec/s" for as long as it lasted. Now the run says within about 15 s that the target does not answer, on
     * its line and once in the log, and once when it answers again; every record arrives once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"exactly-once", "at-least-once"})
    void aTargetThatDoesNotAnswerIsSaidInWordsAndWhenItAnswersAgain(String delivery) throws Exception {
        String topic = Names.unique("silent-target");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        Path dir = TestDirs.newDir("mirror-silent-target");
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-silent").start()) {
            Path file = mirrorFile(dir, topic, target, delivery); // the producers' waits at their defaults
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                boolean exactlyOnce = delivery.equals("exactly-once");
                awaitCopies(target, topic, 100, exactlyOnce);
                target.node(1).stop();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 100, 100);
                mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for 15 s while "
                        + "records wait to be written", Duration.ofSeconds(45));
                mirror.awaitOutput("no answer from the target cluster for", Duration.ofSeconds(5)); // its line
                target.node(1).start();
                mirror.awaitOutput("the target cluster (" + target.bootstrapServers() + ") answers again",
                        Duration.ofSeconds(60));
                awaitCopies(target, topic, 200, exactlyOnce);
                mirror.terminate();
                assertEquals(ExitStatus.OK, mirror.exitStatus(Duration.ofSeconds(60)), mirror.output());
                assertTrue(!exactlyOnce || mirror.output().contains("stopped cleanly: 200 records copied and committed"),
                        mirror.output());
                assertFalse(mirror.output().contains("starting the mirror again"), "ridden out by the producers: "
                        + mirror.output());
            }
            Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        }
    }

    /**
     * A commit that waits on a target gone silent after every copy was acknowledged: nothing is buffered and no send is
     * under way, so the watch saw nothing waiting and the run said nothing until the commit gave up (max.block.ms, a
     * minute by default). Held at the step before the commit, with the copies and offsets in the transaction, the
     * target stops; the commit that then waits on it is said.
     */
    @Test
    void aCommitWaitingOnATargetThatStoppedAfterEveryCopyWasAcknowledgedIsSaid() throws Exception {
        String topic = topicOf100("silent-commit");
        Path dir = TestDirs.newDir("mirror-silent-commit");
        Path release = dir.resolve("release");
        List<String> jvm = pausedBeforeCommitUntil(release);
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-silent-commit").start()) {
            // the commit waits for the target as long as the test keeps it down, not a minute (Kafka's default)
            Path file = mirrorFile(dir, topic, target, "exactly-once", "  properties:", "    max.block.ms: 180000");
            try (CliChild mirror = CliChild.start(dir, jvm, "mirror", file.toString(), "--progress-every", "1s")) {
                // the checkpoint before this step waited for its last copy, and the offsets joined the transaction:
                // nothing is buffered, only the commit is left
                mirror.awaitOutput(CrashPoints.PAUSED + CrashPoints.TRANSACTION_BEFORE_COMMIT, Duration.ofSeconds(60));
                target.node(1).stop();
                // held at the step, the commit counts as waiting too: what is said must come while the target is down
                assertFalse(mirror.output().contains("no answer from the target cluster"), mirror.output());
                Files.createFile(release);
                mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for 15 s",
                        Duration.ofSeconds(45));
                target.node(1).start();
                mirror.awaitOutput("the target cluster (" + target.bootstrapServers() + ") answers again",
                        Duration.ofSeconds(60));
                awaitCopies(target, topic, 100, true);
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
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        Path dir = TestDirs.newDir("mirror-stop-outage");
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-outage").start()) {
            Path file = mirrorFile(dir, topic, target, "at-least-once");
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                awaitCopies(target, topic, 100, false);
                target.node(1).stop();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 100, 100);
                assertStopsAtOnceOnceSaidSilent(mirror, target);
                assertTrue(mirror.output().contains("What was read since the last commit was let go of. Some of "
                        + "their copies may be in the target already; a restart copies them again"), mirror.output());
            }
            target.node(1).start();
            Cli.Result rest = Cli.run("mirror", file.toString(), "--until-end");
            assertEquals(ExitStatus.OK, rest.status(), rest.out() + rest.err());
            Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            awaitCopies(target, topic, 200, false);
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
        String topic = topicOf100("stop-commit");
        Path dir = TestDirs.newDir("mirror-stop-commit");
        Path release = dir.resolve("release");
        List<String> jvm = pausedBeforeCommitUntil(release);
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-stop-commit").start()) {
            Path file = mirrorFile(dir, topic, target, "exactly-once");
            try (CliChild mirror = CliChild.start(dir, jvm, "mirror", file.toString(), "--progress-every", "1s")) {
                mirror.awaitOutput(CrashPoints.PAUSED + CrashPoints.TRANSACTION_BEFORE_COMMIT, Duration.ofSeconds(60));
                target.node(1).stop();
                Files.createFile(release);
                assertStopsAtOnceOnceSaidSilent(mirror, target);
                // the commit let go of was under way: it may have landed, and the words say so (they said it did not)
                assertTrue(mirror.output().contains("Their copies are in transactions whose commit was not seen: each "
                        + "commits with its progress (one under way may still have landed) or is aborted by the next "
                        + "start"), mirror.output());
            }
            target.node(1).start();
            Cli.Result rest = Cli.run("mirror", file.toString(), "--until-end");
            assertEquals(ExitStatus.OK, rest.status(), rest.out() + rest.err());
            awaitCopies(target, topic, 100, true);
        }
    }

    /**
     * Once the mirror said the target does not answer, a SIGTERM stops it within 10 s, with exit 0, saying that it
     * stopped without the last commit and why.
     */
    private static void assertStopsAtOnceOnceSaidSilent(CliChild mirror, KafkaCluster target) throws Exception {
        mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for 15 s",
                Duration.ofSeconds(45));
        long asked = System.nanoTime();
        mirror.terminate();
        assertEquals(ExitStatus.OK, mirror.exitStatus(Duration.ofSeconds(90)), mirror.output());
        Duration took = Duration.ofNanos(System.nanoTime() - asked);
        assertTrue(took.compareTo(Duration.ofSeconds(10)) < 0, "stopped at once, not " + took);
        assertTrue(mirror.output().contains("stopped without the last commit (the target cluster ("
                + target.bootstrapServers() + ") has not answered for "), mirror.output());
    }

    /** A new source topic of one partition holding 100 numbered records. */
    private String topicOf100(String name) {
        String topic = Names.unique(name);
        source.createTopic(topic, 1);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        return topic;
    }

    /** The command's JVM options, holding it at the step before each commit until {@code release} exists. */
    private static List<String> pausedBeforeCommitUntil(Path release) {
        List<String> jvm = new ArrayList<>(CliChild.JVM);
        jvm.addAll(List.of("-Dsluice.pause.at=" + CrashPoints.TRANSACTION_BEFORE_COMMIT,
                "-Dsluice.pause.until=" + release));
        return jvm;
    }

    /** A mirror file of {@code topic} into {@code target}, with {@code targetLines} in its target section. */
    private Path mirrorFile(Path dir, String topic, KafkaCluster target, String delivery, String... targetLines)
            throws IOException {
        List<String> lines = new ArrayList<>(List.of(
                "source:",
                "  bootstrap-servers: " + source.bootstrapServers(),
                "  topics: [" + topic + "]",
                "  properties:",
                "    session.timeout.ms: 6000",
                "    heartbeat.interval.ms: 500",
                "target:",
                "  bootstrap-servers: " + target.bootstrapServers()));
        lines.addAll(List.of(targetLines));
        lines.addAll(List.of(
                "mirror:",
                "  name: " + Names.unique("outage"),
                "  commit-interval: 200ms",
                "  delivery: " + delivery,
                ""));
        return Files.writeString(dir.resolve("mirror.yaml"), String.join("\n", lines));
    }

    /**
     * Until a read_committed reader of the target topic finds {@code count} records: copies of them all, and exactly
     * once when {@code exactlyOnce} (more fails at once); at least once, copies repeated from the window after the
     * last commit are allowed.
     */
    private static void awaitCopies(KafkaCluster target, String topic, int count, boolean exactlyOnce)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (true) {
            List<String> copies = TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT), topic,
                    Duration.ofSeconds(30)).stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
            long distinct = copies.stream().distinct().count();
            assertTrue(!exactlyOnce || copies.size() == distinct, copies.size() - distinct + " duplicates");
            assertTrue(distinct <= count, distinct + " records copied of " + count);
            if (distinct == count) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "only " + distinct + " of " + count + " copied within 120 s");
            Thread.sleep(200);
        }
    }
}
