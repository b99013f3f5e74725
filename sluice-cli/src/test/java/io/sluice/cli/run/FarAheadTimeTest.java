package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.TopicPipelines;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A time field far ahead of the clock (microseconds read as milliseconds, a year-3000 date) is filed where it says, as
 * before, but said once per partition: a new user found {@code dt=3000-01-01/} made without a word.
 */
class FarAheadTimeTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aRecordFiledFarAheadOfTheClockIsSaidOncePerPartition() throws Exception {
        long now = System.currentTimeMillis();
        String topic = Names.unique("far-ahead");
        Path dir = TestDirs.newDir("far-ahead");
        Cli.Result run = archived(topic, dir, now, 32_503_680_000_000L, now, 32_503_680_000_000L + 86_400_000L);

        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertTrue(run.err().contains(topic + "-0@1 is filed under " + topic + "/dt=3000-01-01/, its time "
                + "(3000-01-01T00:00:00Z) "), run.err());
        assertTrue(run.err().contains(" days ahead of this machine's clock: a time field in another unit (microseconds, "
                + "seconds) or a wrong value?"), run.err());
        assertEquals(1, run.err().split("days ahead of this machine's clock", -1).length - 1, "once: " + run.err());
        assertTrue(Files.isDirectory(dir.resolve("archive/" + topic + "/dt=3000-01-02")), "filed all the same");
    }

    /** Epoch seconds read as milliseconds land within weeks of 1970: 1764460800 went into dt=1970-01-21/ unsaid. */
    @Test
    void aRecordFiledWhereEpochSecondsLandIsSaid() throws Exception {
        String topic = Names.unique("in-seconds");
        Path dir = TestDirs.newDir("in-seconds");
        Cli.Result run = archived(topic, dir, 1_764_460_800L, 1_764_460_801L);

        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertTrue(run.err().contains(topic + "-0@0 is filed under " + topic + "/dt=1970-01-21/, its time "
                + "(1970-01-21T10:07:40.800Z) within three years of 1970, where a time in epoch seconds read as "
                + "milliseconds lands: is the time field in seconds?"), run.err());
        assertTrue(Files.isDirectory(dir.resolve("archive/" + topic + "/dt=1970-01-21")), "filed all the same");
    }

    /** {@code --until-end} of a topic whose records' {@code at} fields are {@code ats}, filed by day of {@code at}. */
    private Cli.Result archived(String topic, Path dir, long... ats) throws Exception {
        String[] values = java.util.Arrays.stream(ats).mapToObj(at -> "{\"at\":" + at + "}").toArray(String[]::new);
        Path pipeline = TopicPipelines.archiving(kafka, topic, dir, "{topic}/dt={ts:yyyy-MM-dd}/", "  time-field: at\n",
                values);
        return Cli.run("run", pipeline.toString(), "--until-end");
    }
}
