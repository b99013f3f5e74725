package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.process.ChildJvm;
import io.sluice.testkit.process.ChildProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice quickstart} end to end, as a user runs it (its own JVM, its own broker), with a small number of
 * events; the files are then read back independently of the command.
 */
class QuickstartTest {

    private static final int EVENTS = 20_000;
    /** Fewer hours than the default 48: fewer folders, so fewer files to fsync on a busy test machine. */
    private static final int HOURS = 6;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern FOLDER =
            Pattern.compile("clicks/dt=(\\d{4}-\\d{2}-\\d{2})/hr=(\\d{2})/type=([a-z_]+)/[^/]+\\.jsonl\\.zst");

    @Test
    void archivesEveryEventOnceByDateHourAndTypeThenSumsUpAndGivesADuckDbQuery() throws Exception {
        Path dir = TestDirs.newDir("quickstart");
        Instant start = Instant.now();
        ChildProcess child = ChildJvm.builder("sluice-quickstart")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx512m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("quickstart", "--events", Integer.toString(EVENTS), "--hours", Integer.toString(HOURS), "--dir",
                        dir.resolve("qs").toString())
                .workDir(dir)
                .build()
                .start();
        int status = child.exitStatusWithin(Duration.ofMinutes(3)).orElseThrow(() -> new AssertionError(
                "the quick start did not finish within 3 minutes:\n" + child.tail()));
        String output = Files.readString(child.logFile(), StandardCharsets.UTF_8);
        assertEquals(ExitStatus.OK, status, output);

        Path archive = dir.resolve("qs/archive");
        assertTrue(output.contains(String.format("records     %,d in the files: every offset of clicks exactly once",
                EVENTS)), output);
        assertTrue(output.contains("duckdb -c \"SELECT dt, count(*) AS purchases, round(sum(price * quantity), 2) AS "
                + "revenue FROM read_json('" + archive.resolve("clicks") + "/*/*/type=purchase/*.jsonl.zst', "
                + "hive_partitioning = true) GROUP BY dt ORDER BY dt\""), output);

        Map<Integer, Set<Long>> offsets = new HashMap<>();
        long rows = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(archive.resolve("clicks"))) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            String relative = archive.relativize(file).toString();
            Matcher folder = FOLDER.matcher(relative);
            assertTrue(folder.matches(), relative);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(
                    new ZstdInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) {
                    JsonNode row = JSON.readTree(line);
                    ZonedDateTime ts = Instant.parse(row.get("ts").asText()).atZone(ZoneOffset.UTC);
                    assertEquals(folder.group(1), ts.toLocalDate().toString(), relative);
                    assertEquals(Integer.parseInt(folder.group(2)), ts.getHour(), relative);
                    assertEquals(folder.group(3), row.get("event_type").asText(), relative);
                    assertTrue(!ts.toInstant().isBefore(start.minus(Duration.ofHours(HOURS)).minusSeconds(2))
                            && ts.toInstant().isBefore(Instant.now()), "within the last hours: " + ts);
                    assertEquals("clicks", row.get("kafka_topic").asText());
                    boolean added = offsets.computeIfAbsent(row.get("kafka_partition").asInt(), p -> new HashSet<>())
                            .add(row.get("kafka_offset").asLong());
                    assertTrue(added, "offset seen twice: " + line);
                    rows++;
                }
            }
        }
        assertEquals(EVENTS, rows);
        assertEquals(4, offsets.size(), "four partitions");
        for (Set<Long> partition : offsets.values()) {
            assertEquals(partition.size() - 1, partition.stream().mapToLong(Long::longValue).max().orElseThrow(),
                    "offsets from 0 without a gap");
        }
        assertTrue(output.contains(String.format("files       %,d in ", files.size())), output);
        assertTrue(Files.readString(dir.resolve("qs/pipeline.yaml")).contains("format: jsonl"));
    }
}
