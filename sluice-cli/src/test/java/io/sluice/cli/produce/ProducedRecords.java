package io.sluice.cli.produce;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.kafka.TestRecords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** What the produce tests check a run against: what a read_committed consumer reads, and what the summary says. */
final class ProducedRecords {

    private static final Pattern COUNTS = Pattern.compile("([\\d,]+) records? read, ([\\d,]+) (?:acknowledged|"
            + "committed), ([\\d,]+) failed, ([\\d,]+) without an answer");

    /** The summary's counts. */
    record Counts(long read, long acknowledged, long failed, long unknown) {
    }

    private ProducedRecords() {
    }

    /**
     * The topic to the end of its log, once every transaction in it is decided: an exactly-once run's last commit
     * returns before its markers reach the partition, and a read up to the last stable offset right after it missed
     * that transaction's records (a flake: 51 of 300 lines read after a resumed import said it sent them all).
     */
    static List<ConsumerRecord<byte[], byte[]>> read(KafkaCluster kafka, String topic) {
        return TestRecords.readAllDecided(kafka.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(30));
    }

    static List<String> values(KafkaCluster kafka, String topic) {
        return TestRecords.values(read(kafka, topic));
    }

    static Counts counts(String summary) {
        Matcher m = COUNTS.matcher(summary);
        if (!m.find()) {
            throw new AssertionError("no summary in:\n" + summary);
        }
        return new Counts(number(m.group(1)), number(m.group(2)), number(m.group(3)), number(m.group(4)));
    }

    /** The journal's lines by input line ("file:line"): "ok p@o" or "failed reason". */
    static Map<String, String> journal(Path file) throws IOException {
        Map<String, String> outcomes = new HashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] parts = line.split("\t", 4);
            if (outcomes.put(parts[0], parts[2] + " " + parts[3]) != null) {
                throw new AssertionError("two journal lines for " + parts[0]);
            }
        }
        return outcomes;
    }

    /** {@code count} lines "prefix-0" .. into {@code file}. */
    static List<String> writeLines(Path file, String prefix, int count) throws IOException {
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            lines.add(prefix + "-" + i);
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
        return lines;
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", ""));
    }
}
