package io.sluice.cli.produce;

import io.sluice.cli.CliChild;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice produce} in a process of its own, stopped the two ways a process stops: SIGTERM in the middle of a pipe
 * (it stops reading, settles what it sent, and the summary is what a consumer reads), and kill -9 in the middle of an
 * exactly-once import, again and again at seeded random moments (a rerun of the same command goes on after the last
 * commit: every line once for a read_committed reader).
 */
class ProduceCrashTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void sigtermInTheMiddleOfAPipeSettlesWhatWasSentAndTheSummaryIsWhatAConsumerReads() throws Exception {
        String topic = Names.unique("produce-pipe");
        kafka.createTopic(topic, 3);
        Path dir = TestDirs.newDir("produce-pipe");
        Path journal = dir.resolve("journal.tsv");
        try (CliChild child = CliChild.start(dir, "produce", "-b", kafka.bootstrapServers(), "-t", topic,
                "--journal", journal.toString())) {
            Thread writer = new Thread(() -> writeForever(child.stdin()), "pipe-writer");
            writer.setDaemon(true);
            writer.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ProducedRecords.read(kafka, topic).size() < 2_000) {
                assertTrue(System.nanoTime() < deadline, () -> "nothing arrives: " + child.output());
                Thread.sleep(100);
            }
            child.terminate(); // SIGTERM, with standard input still open and lines still coming
            int status = child.exitStatus(Duration.ofSeconds(60));
            String output = child.output();
            assertEquals(ExitStatus.TERMINATED, status, "stopped before the input's end: " + output);
            ProducedRecords.Counts counts = ProducedRecords.counts(output);
            assertTrue(output.contains("stopped by a signal: the rest of the input was not read"), output);
            assertEquals(0, counts.failed(), output);
            assertEquals(0, counts.unknown(), output);
            assertEquals(counts.read(), counts.acknowledged(), output);

            List<String> values = ProducedRecords.values(kafka, topic);
            assertEquals(counts.acknowledged(), values.size(), "0 lost, none twice: the summary is what arrived");
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                expected.add("line-" + i);
            }
            assertEquals(expected, values.stream().sorted((a, b) -> Integer.compare(number(a), number(b))).toList(),
                    "the first lines of the pipe, each once");
            assertEquals(values.size(), ProducedRecords.journal(journal).values().stream()
                    .filter(o -> o.startsWith("ok ")).count(), "the journal names every record acknowledged");
        }
    }

    @Test
    void killedAgainAndAgainInTheMiddleOfAnExactlyOnceImportEveryLineArrivesOnce() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ProduceCrashTest seed: " + seed + " (set -Dsluice.produce.seed to repeat)");
        Random random = new Random(Long.getLong("sluice.produce.seed", seed));
        String topic = Names.unique("produce-kill");
        kafka.createTopic(topic, 2);
        Path dir = TestDirs.newDir("produce-kill");
        List<String> lines = new ArrayList<>(ProducedRecords.writeLines(dir.resolve("a.txt"), "a", 12_000));
        lines.addAll(ProducedRecords.writeLines(dir.resolve("b.txt"), "b", 12_000));
        String[] command = {"produce", "-b", kafka.bootstrapServers(), "-t", topic, "--exactly-once",
            "--commit-interval", "100ms", "--rate", "8000", dir.resolve("a.txt").toString(),
            dir.resolve("b.txt").toString()};

        for (int kill = 1; kill <= 5; kill++) {
            ChildProcess child = child(dir, "produce-kill-" + kill, command);
            child.awaitLogLine(l -> l.contains("import produce-" + topic), Duration.ofSeconds(60));
            Thread.sleep(200 + random.nextInt(900));
            child.kill();
        }
        ChildProcess last = child(dir, "produce-kill-last", command);
        String lastLog = last.awaitLogLine(l -> l.contains("is complete: a rerun sends nothing"),
                Duration.ofSeconds(90));
        assertEquals(ExitStatus.OK, last.waitForExit(), last.tail());
        assertTrue(lastLog.contains("is complete"), lastLog);

        Map<String, Long> counted = ProducedRecords.values(kafka, topic).stream()
                .collect(Collectors.groupingBy(v -> v, HashMap::new, Collectors.counting()));
        List<String> twice = counted.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .limit(5).toList();
        assertEquals(List.of(), twice, "lines read twice by a read_committed reader (seed " + seed + ")");
        List<String> lost = lines.stream().filter(l -> !counted.containsKey(l)).limit(5).toList();
        assertEquals(List.of(), lost, "lines never arrived (seed " + seed + ")");
        assertEquals(lines.size(), counted.size());
    }

    private static ChildProcess child(Path dir, String name, String... args) {
        return ChildJvm.builder(name)
                .classpathOfThisJvm()
                .jvmOptions(CliChild.JVM)
                .mainClass(Main.class.getName())
                .args(args)
                .workDir(dir)
                .build()
                .start();
    }

    private static void writeForever(OutputStream stdin) {
        try (OutputStream out = new java.io.BufferedOutputStream(stdin, 8192)) {
            for (int i = 0; ; i++) {
                out.write(("line-" + i + "\n").getBytes(StandardCharsets.UTF_8));
                if (i % 100 == 0) {
                    out.flush();
                    Thread.sleep(5);
                }
            }
        } catch (IOException e) {
            // the command exited: its end of the pipe is closed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static int number(String value) {
        return Integer.parseInt(value.substring(value.indexOf('-') + 1));
    }
}
