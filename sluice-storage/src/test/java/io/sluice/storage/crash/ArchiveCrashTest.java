package io.sluice.storage.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.CrashPoints;
import io.sluice.storage.sink.LocalArchiveFiles;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.kafka.Listener;
import io.sluice.testkit.process.ChildJvm;
import io.sluice.testkit.process.ChildProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A child JVM archiving a topic to local files halts at each named step of the exactly-once protocol in turn, with
 * size rolling and with wall-clock rolling, and is killed at three seeded random moments; a restart then finishes
 * the topic. Afterwards every offset is in exactly one visible file and nothing is left staged.
 */
@Tag("slow")
class ArchiveCrashTest {

    private static final int PARTITIONS = 2;
    private static final int RECORDS = 1_200;

    static Stream<Arguments> crashPoints() {
        List<String[]> points = List.of(
                new String[] {"archive.after-write", "150"},
                new String[] {"archive.after-seal", "2"},
                new String[] {"archive.after-manifest", "2"},
                new String[] {CrashPoints.BEFORE_COMMIT, "2"},
                new String[] {CrashPoints.AFTER_COMMIT_REQUEST, "2"},
                new String[] {CrashPoints.AFTER_COMMIT_ACK, "2"},
                new String[] {"archive.mid-publish", "2"},
                new String[] {"archive.after-publish", "2"});
        return Stream.of("size", "age").flatMap(rolling -> points.stream()
                .map(p -> Arguments.of(p[0], Integer.parseInt(p[1]), rolling)));
    }

    @ParameterizedTest(name = "{0}:{1} with {2} rolling")
    @MethodSource("crashPoints")
    void aCrashAtANamedStepLeavesEveryOffsetInExactlyOneVisibleFile(String point, int hit, String rolling)
            throws Exception {
        Scenario s = new Scenario(point.replace('.', '-') + "-" + rolling, rolling);
        ChildProcess child = s.start("-Dsluice.crash.at=" + point + ":" + hit);
        int status = child.exitStatusWithin(Duration.ofSeconds(60)).orElseGet(() -> {
            child.kill();
            throw new AssertionError(point + ":" + hit + " was not reached in 60 s:\n" + child.tail());
        });
        assertEquals(CrashPoints.HALT_STATUS, status, "halted at " + point + "\n" + child.tail());
        s.finishAndVerify();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11L, 2026L, 77_777L})
    void aKillAtASeededRandomMomentLeavesEveryOffsetInExactlyOneVisibleFile(long seed) throws Exception {
        long delay = 200 + new Random(seed).nextInt(1_500);
        System.out.println("[archive-crash] seed " + seed + ": kill -9 after " + delay + " ms");
        Scenario s = new Scenario("random-" + seed, seed % 2 == 0 ? "size" : "age");
        ChildProcess child = s.start();
        Thread.sleep(delay);
        child.kill();
        s.finishAndVerify();
    }

    private static final class Scenario {
        final KafkaCluster kafka = SharedKafka.cluster();
        final String topic = Names.unique("archive-crash");
        final String group = Names.unique("archive-crash-group");
        final String rolling;
        final Path dir;
        final Path root;

        Scenario(String name, String rolling) {
            this.rolling = rolling;
            kafka.createTopic(topic, PARTITIONS);
            produce();
            dir = TestDirs.newDir("archive-crash-" + name);
            root = dir.resolve("archive");
        }

        ChildProcess start(String... jvmOptions) {
            ChildProcess child = ChildJvm.builder("archiver")
                    .classpathOfThisJvm()
                    .jvmOptions(List.of(jvmOptions))
                    .mainClass(ArchiveChild.class.getName())
                    .args(kafka.bootstrapServers(), topic, group, root.toString(), rolling)
                    .workDir(dir)
                    .build()
                    .start();
            child.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
            return child;
        }

        void finishAndVerify() throws Exception {
            ChildProcess again = start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (LocalArchiveFiles.offsets(root).size() < RECORDS) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("after the restart only " + LocalArchiveFiles.offsets(root).size()
                            + " of " + RECORDS + " offsets are visible:\n" + again.tail());
                }
                Thread.sleep(50);
            }
            again.stop(Duration.ofSeconds(30));
            Map<String, Integer> visible = LocalArchiveFiles.offsets(root);
            assertEquals(RECORDS, visible.size(), "every offset visible");
            List<String> twice = visible.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                    .limit(10).toList();
            assertTrue(twice.isEmpty(), "offsets visible more than once: " + twice);
            Path staging = root.resolve("_sluice/staging");
            if (Files.exists(staging)) {
                try (Stream<Path> staged = Files.walk(staging)) {
                    List<Path> left = staged.filter(Files::isRegularFile).toList();
                    assertTrue(left.isEmpty(), "orphans left staged: " + left);
                }
            }
        }

        private void produce() {
            Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
            props.put("max.in.flight.requests.per.connection", 1);
            String[] categories = {"click", "view", "buy"};
            try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < RECORDS; i++) {
                    producer.send(new ProducerRecord<>(topic, "k" + (i % 40), "{\"category\":\""
                            + categories[i % 3] + "\",\"i\":" + i + "}"));
                }
                producer.flush();
            }
        }
    }
}
