package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliChild;
import io.sluice.cli.ExitStatus;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the target-outage tests of the mirror command share: a mirror file of a topic of the shared source cluster
 * into a target of the test's own, the copies awaited in the target, and a stop said at once once the target is
 * silent.
 */
final class OutageMirrors {

    /**
     * A line of a target's {@code properties:} section: the producers' request timeout, after which the target's
     * silence is said ({@code TargetReach.grace}) instead of after 15 s, so that the tests do not wait 15 s for it.
     */
    static final String REQUEST_TIMEOUT = "    request.timeout.ms: 3000";
    /** How the words say that grace. */
    static final String SILENT_AFTER = "3 s";

    final KafkaCluster source = SharedKafka.cluster();

    /**
     * Once the mirror said the target does not answer, a SIGTERM stops it within 10 s, with exit 0, saying that it
     * stopped without the last commit and why.
     */
    void assertStopsAtOnceOnceSaidSilent(CliChild mirror, KafkaCluster target) throws Exception {
        mirror.awaitOutput("no answer from the target cluster (" + target.bootstrapServers() + ") for " + SILENT_AFTER,
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
    String topicOf100(String name) {
        String topic = Names.unique(name);
        source.createTopic(topic, 1);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        return topic;
    }

    /** The command's JVM options, holding it at the step before each commit until {@code release} exists. */
    List<String> pausedBeforeCommitUntil(Path release) {
        List<String> jvm = new ArrayList<>(CliChild.JVM);
        jvm.addAll(List.of("-Dsluice.pause.at=" + CrashPoints.TRANSACTION_BEFORE_COMMIT,
                "-Dsluice.pause.until=" + release));
        return jvm;
    }

    /** A mirror file of {@code topic} into {@code target}, with {@code targetLines} in its target section. */
    Path mirrorFile(Path dir, String topic, KafkaCluster target, String delivery, String... targetLines)
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
    void awaitCopies(KafkaCluster target, String topic, int count, boolean exactlyOnce)
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
