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
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    private final OutageMirrors mirrors = new OutageMirrors();
    private final KafkaCluster source = mirrors.source;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"exactly-once", "at-least-once"})
    void aTargetDownLongerThanTheProducerWaitsIsRiddenOutAndEveryRecordArrivesOnce(String delivery) throws Exception {
        String topic = Names.unique("outage");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 200);
        Path dir = TestDirs.newDir("mirror-target-outage");
        try (KafkaCluster target = KafkaCluster.builder().name("mirror-outage").start()) {
            Path file = mirrors.mirrorFile(dir, topic, target, delivery,
                    "  properties:",
                    "    max.block.ms: 3000",
                    "    request.timeout.ms: 1000",
                    "    delivery.timeout.ms: 3000",
                    "    transaction.timeout.ms: 5000");
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                boolean exactlyOnce = delivery.equals("exactly-once");
                mirrors.awaitCopies(target, topic, 200, exactlyOnce);
                long copying = System.nanoTime(); // the command runs from before this until its stop
                target.node(1).stop();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 200, 100);
                // the engine fails once its producer gives up, and the start after it fails too while the target is down
                mirror.awaitOutput("starting the mirror again in 5 s", Duration.ofSeconds(60));
                mirror.awaitOutput("the mirror could not start again", Duration.ofSeconds(90));
                target.node(1).start();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 300, 100);
                mirrors.awaitCopies(target, topic, 400, exactlyOnce);
                double ranAtLeast = (System.nanoTime() - copying) / 1e9;
                mirror.terminate();
                assertEquals(ExitStatus.OK, mirror.exitStatus(Duration.ofSeconds(60)), mirror.output());
                if (exactlyOnce) { // the whole command's copies, not the last engine's only
                    assertTrue(mirror.output().contains("stopped cleanly: 400 records copied and committed"),
                            mirror.output());
                }
                // and the whole command's time: the last engine's alone started after the failed start again
                Matcher took = Pattern.compile("stopped cleanly: .*, in ([0-9.]+) s").matcher(mirror.output());
                assertTrue(took.find(), mirror.output());
                assertTrue(Double.parseDouble(took.group(1)) >= ranAtLeast, ranAtLeast + " s at least: "
                        + mirror.output());
            }
            Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            assertTrue(verify.out().contains("CLEAN: the target holds every committed source record"), verify.out());
        }
    }

    /**
     * A target down for less than the producers' waits (their defaults: two minutes) was ridden out in silence: the line
     * read "0 rec/s" for as long as it lasted. Now the run says within about 15 s (its request timeout, when shorter)
     * that the target does not answer, on
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
            // the producers' waits at their defaults (two minutes); a request timeout of 3 s has the silence said
            // after 3 s instead of 15
            Path file = mirrors.mirrorFile(dir, topic, target, delivery, "  properties:",
                    "    request.timeout.ms: 3000");
            try (CliChild mirror = CliChild.start(dir, "mirror", file.toString(), "--progress-every", "1s")) {
                boolean exactlyOnce = delivery.equals("exactly-once");
                mirrors.awaitCopies(target, topic, 100, exactlyOnce);
                target.node(1).stop();
                TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 100, 100);
                mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for 3 s while "
                        + "records wait to be written", Duration.ofSeconds(45));
                mirror.awaitOutput("no answer from the target cluster for", Duration.ofSeconds(5)); // its line
                target.node(1).start();
                mirror.awaitOutput("the target cluster (" + target.bootstrapServers() + ") answers again",
                        Duration.ofSeconds(60));
                mirrors.awaitCopies(target, topic, 200, exactlyOnce);
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
}
