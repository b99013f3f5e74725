package io.sluice.core.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.crash.CrashPoints;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.wire.CommitMetadata;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A child JVM processing a topic halts at each named step of the commit path in turn, or is killed at a seeded random
 * moment; a restart then finishes the topic. Every record must be processed at least once, and a record processed
 * twice must be one the last successful commit did not cover (neither below the committed offset nor in its
 * completion map).
 */
@Tag("slow")
class EngineCrashTest {

    private static final int PARTITIONS = 3;
    private static final int RECORDS = 3_000;

    static Stream<Arguments> crashPoints() {
        return Stream.of(
                Arguments.of(CrashPoints.AFTER_DISPATCH, 3, false),
                Arguments.of(CrashPoints.AFTER_COMPLETION, 700, false),
                Arguments.of(CrashPoints.BEFORE_COMMIT, 3, false),
                Arguments.of(CrashPoints.AFTER_COMMIT_REQUEST, 3, false),
                Arguments.of(CrashPoints.AFTER_COMMIT_ACK, 3, false),
                Arguments.of(CrashPoints.CLOSE_BEFORE_COMMIT, 1, true),
                Arguments.of(CrashPoints.CLOSE_AFTER_COMMIT, 1, true));
    }

    @ParameterizedTest(name = "{0}:{1}")
    @MethodSource("crashPoints")
    void aCrashAtANamedStepLosesNothingAndReplaysOnlyWhatWasNotCommitted(String point, int hit, boolean onClose)
            throws Exception {
        Scenario s = new Scenario(point.replace('.', '-'));
        ChildProcess child = s.start("-Dsluice.crash.at=" + point + ":" + hit);
        if (onClose) {
            s.awaitProcessed(RECORDS / 3);
            child.stop(Duration.ofSeconds(30)); // SIGTERM: the drain reaches the close crash points
        }
        int status = awaitExit(child, point);
        assertEquals(CrashPoints.HALT_STATUS, status, "halted at " + point + ":" + hit + "\n" + child.tail());
        s.verifyAfterRestart();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {20261121L, 7L, 4242L})
    void aKillAtASeededRandomMomentLosesNothing(long seed) throws Exception {
        Random random = new Random(seed);
        long delayMillis = 300 + random.nextInt(1_500);
        System.out.println("[crash-test] seed " + seed + ": kill -9 after " + delayMillis + " ms of processing");
        Scenario s = new Scenario("random-" + seed);
        ChildProcess child = s.start();
        s.awaitProcessed(1);
        TimeUnit.MILLISECONDS.sleep(delayMillis);
        child.kill();
        s.verifyAfterRestart();
    }

    private static int awaitExit(ChildProcess child, String point) {
        return child.exitStatusWithin(Duration.ofSeconds(60)).orElseGet(() -> {
            child.kill();
            throw new AssertionError("crash point " + point + " was not reached within 60 s:\n" + child.tail());
        });
    }

    /** One topic, one group, one processed-records log, and the child JVMs that work on them. */
    private static final class Scenario {
        final KafkaCluster kafka = SharedKafka.cluster();
        final String topic = Names.unique("crash");
        final String group = Names.unique("crash-group");
        final Path dir;
        final Path log;

        Scenario(String name) {
            kafka.createTopic(topic, PARTITIONS);
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, RECORDS);
            dir = TestDirs.newDir("crash-" + name);
            log = dir.resolve("processed.log");
        }

        ChildProcess start(String... jvmOptions) {
            ChildProcess child = ChildJvm.builder("engine")
                    .classpathOfThisJvm()
                    .jvmOptions(List.of(jvmOptions))
                    .mainClass(CrashChild.class.getName())
                    .args(kafka.bootstrapServers(), topic, group, log.toString())
                    .workDir(dir)
                    .build()
                    .start();
            child.awaitLogLine(line -> line.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
            return child;
        }

        void awaitProcessed(int count) throws IOException, InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (lines() < count) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("fewer than " + count + " records processed in 60 s");
                }
                TimeUnit.MILLISECONDS.sleep(10);
            }
        }

        void verifyAfterRestart() throws Exception {
            Map<TopicPartition, OffsetAndMetadata> committed = kafka.admin().listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            Map<Integer, Integer> before = countsPerRecord();

            ChildProcess again = start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (distinctRecords() < RECORDS) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("the restart processed " + distinctRecords() + " of " + RECORDS
                            + " distinct records in 90 s:\n" + again.tail());
                }
                TimeUnit.MILLISECONDS.sleep(20);
            }
            again.stop(Duration.ofSeconds(30));

            Map<Integer, Integer> counts = countsPerRecord();
            for (int p = 0; p < PARTITIONS; p++) {
                OffsetAndMetadata c = committed.get(new TopicPartition(topic, p));
                long offset = c == null ? 0 : c.offset();
                CompletionMap done = CompletionMap.fromCommit(offset, c == null ? "" : c.metadata());
                for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
                    int partition = e.getKey() >> 20;
                    long o = e.getKey() & 0xFFFFF;
                    if (partition != p || e.getValue() == 1) {
                        continue;
                    }
                    boolean covered = o < offset || done.isComplete(o);
                    assertTrue(!covered, "partition " + p + " offset " + o + " was processed " + e.getValue()
                            + " times although the last commit (" + offset + ", " + done + ") covered it");
                    assertTrue(e.getValue() == 2 && before.getOrDefault(e.getKey(), 0) == 1,
                            "partition " + p + " offset " + o + " processed " + e.getValue() + " times");
                }
            }
            assertEquals(RECORDS, counts.size(), "every record processed at least once");
        }

        private long lines() throws IOException {
            return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8).size() : 0;
        }

        private int distinctRecords() throws IOException {
            return countsPerRecord().size();
        }

        /** Keyed by partition << 20 | offset. */
        private Map<Integer, Integer> countsPerRecord() throws IOException {
            Map<Integer, Integer> counts = new HashMap<>();
            if (!Files.exists(log)) {
                return counts;
            }
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.trim().split(" ");
                counts.merge(Integer.parseInt(f[0]) << 20 | Integer.parseInt(f[1]), 1, Integer::sum);
            }
            return counts;
        }
    }
}
