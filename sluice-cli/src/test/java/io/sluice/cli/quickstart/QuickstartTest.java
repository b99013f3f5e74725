package io.sluice.cli.quickstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@code sluice quickstart} end to end, as a user runs it (its own JVM, its own broker), with a small number of
 * events; the Parquet files are then read back with DuckDB, independently of Sluice's readers, and the query the
 * summary offers is run as pasted.
 */
class QuickstartTest {

    private static final int EVENTS = 5_000;
    /** Fewer hours than the default 48: fewer folders, so fewer files to fsync on a busy test machine. */
    private static final int HOURS = 2;
    private static final Pattern FOLDER =
            Pattern.compile("clicks/dt=\\d{4}-\\d{2}-\\d{2}/hr=\\d{2}/type=[a-z_]+/[^/]+\\.parquet");
    private static final Pattern PASTED_QUERY = Pattern.compile("duckdb -c \"(.+)\"");

    @Test
    void archivesEveryEventOnceAsParquetByDateHourAndTypeAuditsItAndGivesADuckDbQuery() throws Exception {
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
        assertTrue(output.contains(String.format("      OK: every expected offset of clicks appears exactly once in "
                + "file://%s/ (%,d offsets in 4 partitions, ", archive, EVENTS)), output);
        assertTrue(output.contains(String.format("  records     %,d of %,d exactly once in the files", EVENTS, EVENTS)),
                output);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(archive.resolve("clicks"))) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        for (Path file : files) {
            assertTrue(FOLDER.matcher(archive.relativize(file).toString()).matches(), file.toString());
        }
        assertTrue(output.contains(String.format("  files       %,d in ", files.size())), output);
        assertTrue(Files.readString(dir.resolve("qs/pipeline.yaml")).contains("format: parquet"));

        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
                Statement sql = duckdb.createStatement()) {
            // the folders' values as text (no type guessing), next to the rows' own columns
            String rows = "read_parquet('" + archive.resolve("clicks") + "/**/*.parquet', hive_partitioning = true, "
                    + "hive_types_autocast = false)";
            assertEquals(List.of((long) EVENTS, (long) EVENTS, 4L), longs(sql, "SELECT count(*), "
                    + "count(DISTINCT (kafka_partition, kafka_offset)), count(DISTINCT kafka_partition) FROM " + rows));
            assertEquals(List.of(0L), longs(sql, "SELECT count(*) FROM (SELECT kafka_partition FROM " + rows
                    + " GROUP BY kafka_partition HAVING min(kafka_offset) <> 0 OR max(kafka_offset) + 1 <> count(*))"),
                    "each partition's offsets from 0 without a gap");
            assertEquals(List.of(0L), longs(sql, "SELECT count(*) FROM " + rows + " WHERE dt <> substr(ts, 1, 10) "
                    + "OR hr <> substr(ts, 12, 2) OR type <> event_type OR kafka_topic <> 'clicks'"),
                    "every row in the folder of its own date, hour and type");
            assertEquals(List.of(0L), longs(sql, "SELECT count(*) FROM " + rows + " WHERE CAST(ts AS TIMESTAMPTZ) < "
                    + "TIMESTAMPTZ '" + start.minus(Duration.ofHours(HOURS)).minusSeconds(2) + "' OR CAST(ts AS "
                    + "TIMESTAMPTZ) > TIMESTAMPTZ '" + Instant.now() + "'"), "every event within the last hours");

            Matcher pasted = PASTED_QUERY.matcher(output);
            assertTrue(pasted.find(), output);
            long purchases = 0;
            try (ResultSet days = sql.executeQuery(pasted.group(1))) {
                while (days.next()) {
                    purchases += days.getLong("purchases");
                    assertTrue(days.getDouble("revenue") > 0, "revenue on " + days.getString("dt"));
                }
            }
            assertEquals(longs(sql, "SELECT count(*) FROM " + rows + " WHERE event_type = 'purchase'").get(0),
                    purchases, "the pasted query reads every purchase");
            assertTrue(purchases > 0, "3% of the events are purchases");
        }
        theBrokerComesBackSoThePipelineFileWorksAgain(dir, output);
    }

    /**
     * After the quick start its broker is gone, and the pipeline file names it: the end of the output says how to
     * start it again, and with it running, the {@code verify} and {@code lag} it suggests work (issue 17).
     */
    private static void theBrokerComesBackSoThePipelineFileWorksAgain(Path dir, String output) throws Exception {
        Path folder = dir.resolve("qs").toAbsolutePath().normalize();
        Path pipeline = folder.resolve("pipeline.yaml");
        assertTrue(output.contains("  ./sluice local start --dir " + folder + "\n"), output);
        assertTrue(output.contains("  ./sluice verify " + pipeline + "\n"), output);
        assertTrue(output.contains("  ./sluice lag " + pipeline + "\n"), output);
        Cli.Result down = Cli.run("lag", pipeline.toString());
        assertEquals(ExitStatus.FAILURE, down.status(), "the broker stopped with the quick start: " + down.err());

        ChildProcess broker = ChildJvm.builder("sluice-local-start")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx128m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("local", "start", "--dir", folder.toString())
                // started as /opt/sluice/sluice, it says so in the commands it suggests (not ./sluice)
                .environment("SLUICE_LAUNCHER", "/opt/sluice/sluice")
                .workDir(dir)
                .build()
                .start();
        try {
            broker.awaitLogLine(line -> line.startsWith("ready at 127.0.0.1:"), Duration.ofSeconds(90));
            Cli.Result verify = Cli.run("verify", pipeline.toString());
            assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
            assertTrue(verify.out().contains(String.format("%,d offsets in 4 partitions", EVENTS)), verify.out());
            Cli.Result lag = Cli.run("lag", pipeline.toString());
            assertEquals(ExitStatus.OK, lag.status(), lag.out() + lag.err());
            assertTrue(lag.out().contains("Total lag 0 records"), lag.out());
            // a second start of a broker that runs: said, and done (it printed the usage and exited 2)
            Cli.Result again = Cli.run("local", "start", "--dir", folder.toString());
            assertEquals(ExitStatus.OK, again.status(), again.out() + again.err());
            assertTrue(again.out().contains("is running already"), again.out() + again.err());
            assertEquals(ExitStatus.OK, broker.stop(Duration.ofSeconds(60)), broker.tail());
            assertTrue(Files.readString(broker.logFile(), StandardCharsets.UTF_8)
                    .contains("stopped; start it again with /opt/sluice/sluice local start --dir " + folder),
                    broker.tail());
        } finally {
            if (broker.isAlive()) {
                broker.kill();
            }
        }
    }

    /** The first row of {@code query}, as longs. */
    private static List<Long> longs(Statement sql, String query) throws Exception {
        try (ResultSet r = sql.executeQuery(query)) {
            assertTrue(r.next(), query);
            Long[] values = new Long[r.getMetaData().getColumnCount()];
            for (int i = 0; i < values.length; i++) {
                values[i] = r.getLong(i + 1);
            }
            return List.of(values);
        }
    }
}
