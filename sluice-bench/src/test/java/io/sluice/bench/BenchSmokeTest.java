package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.acks.AcksTrial;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.SharedKafka;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The smoke form of each benchmark: tiny sizes, one round, the same code as a real run (on one broker for all, to
 * keep it short; the acks table on three of its own, since it kills one). It checks that every system runs, that
 * archiving systems leave every record in their files, and that the last line stays the JSON tools read; it measures
 * nothing (speed is shown by bench/run).
 */
class BenchSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"engine-cpu", "engine-io"})
    void theSmokeFormRunsEverySystemAndEndsWithValidJson(String name) throws Exception {
        smoke(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"archive-jsonl", "archive-parquet"})
    void theArchiveSmokeFormFindsEveryRecordInEachSystemsFiles(String name) throws Exception {
        Scenario scenario = Scenario.named(name, true);
        JsonNode json = smoke(name);
        for (String system : scenario.systems()) {
            JsonNode result = json.get("results").get(system);
            assertEquals(scenario.records(), result.get("output_rows").asInt(), system + ": " + result);
            assertTrue(result.get("heap_peak_mb").asDouble() > 0, system + ": " + result);
        }
        for (String archiver : new String[] {"sluice", "sluice-command", "connect-sink", "connect-json"}) {
            JsonNode result = json.get("results").get(archiver);
            assertTrue(result.get("output_files").asInt() > 0 && result.get("output_bytes").asLong() > 0,
                    archiver + ": " + result);
        }
        // Connect's sink is at least once: a rebalance may write a record twice, and that is reported, not failed
        assertEquals(0, json.get("results").get("sluice").get("duplicates").asInt(), json.toString());
        assertEquals(0, json.get("results").get("sluice-command").get("duplicates").asInt(), json.toString());
        assertTrue(json.get("results").get("sluice-command").get("rss_peak_mb").asDouble() > 0, json.toString());
        assertTrue(json.get("goals").get("sluice-command/sluice cpu_us_per_record").has("at_most"), json.toString());
        assertTrue(json.get("goals").has("sluice/connect-sink"), json.toString());
        assertTrue(json.get("goals").has("sluice/consume-ceiling"), json.toString());
        if (name.equals("archive-jsonl")) {
            JsonNode floor = json.get("results").get("floor");
            assertTrue(floor.get("output_bytes").asLong() > 0, "the floor compresses what it consumes: " + floor);
            assertTrue(json.get("goals").get("sluice/floor cpu_us_per_record").has("at_most"), json.toString());
            JsonNode checked = json.get("results").get("floor-checked");
            assertEquals(json.get("records").asLong(), checked.get("output_rows").asLong(),
                    "the checked floor reads and compresses every line: " + checked);
            assertTrue(checked.get("output_bytes").asLong() > 0, checked.toString());
            assertTrue(json.get("ratios").has("sluice/floor-checked cpu_us_per_record"), json.toString());
        }
    }

    /**
     * The mirror's smoke form between the test kit's two clusters: every copier's copies read back by a
     * read_committed reader of the target, each record there (at least) once, Sluice's exactly once; MirrorMaker 2
     * runs only in full runs.
     */
    @Test
    void theMirrorSmokeFormFindsEveryRecordInTheTargetAndSluiceCopiesEachOnce() throws Exception {
        Scenario scenario = Scenario.named("mirror", true);
        JsonNode json = checked(scenario, MirrorBench.run(scenario, BenchMain.Runs.smokeOnce(), SharedKafka.cluster(),
                SharedKafka.second()));
        for (String system : scenario.systems()) {
            JsonNode result = json.get("results").get(system);
            assertTrue(result.get("target_records").asInt() >= scenario.records(), system + ": " + result);
            assertTrue(result.get("first_record_seconds").asDouble() > 0, system + ": " + result);
            // measured, but the smoke form's 2,000 copies can take less CPU than the OS's CPU-time tick (10 ms)
            assertTrue(result.get("cpu_us_per_record").asDouble() >= 0, system + ": " + result);
            double withoutJit = result.get("cpu_us_per_record_without_jit").asDouble(-1);
            assertTrue(withoutJit >= 0 && withoutJit <= result.get("cpu_us_per_record").asDouble(),
                    "the CPU without the JIT compiler's threads is part of the CPU: " + system + ": " + result);
            // the brokers' CPU over the same span, beside the copier's
            assertTrue(result.get("source_broker_cpu_us_per_record").asDouble() >= 0, system + ": " + result);
            assertTrue(result.get("target_broker_cpu_us_per_record").asDouble() >= 0, system + ": " + result);
        }
        for (String exactlyOnce : List.of("sluice", "sluice-command")) {
            JsonNode sluice = json.get("results").get(exactlyOnce);
            assertEquals(scenario.records(), sluice.get("target_records").asInt(), exactlyOnce + ": " + sluice);
            assertEquals(0, sluice.get("duplicates").asInt(), exactlyOnce + ": " + sluice);
            assertEquals(0, sluice.get("failover_reread").asInt(), exactlyOnce + ", exact translation: " + sluice);
        }
        assertTrue(json.get("results").get("sluice-alo").has("failover_reread"), json.toString());
        assertFalse(json.get("results").get("plain-copier").has("failover_reread"), "it translates nothing: " + json);
        assertTrue(json.get("goals").has("sluice-alo/plain-copier"), json.toString());
    }

    /**
     * {@code --warm}: each copier copies the topic once in its own JVM (into a topic of its own, deleted after), then
     * the measured copy, which still finds every record once; the command and MirrorMaker 2, in processes of their
     * own, are refused rather than measured cold under a warm heading.
     */
    @Test
    void aWarmMirrorRunCopiesOnceBeforeTheMeasuredCopyAndRefusesWhatItCannotWarm() throws Exception {
        BenchMain.Runs warm = new BenchMain.Runs(1, true, false, true);
        Scenario scenario = Scenario.named("mirror", true).onlySystems(List.of("sluice"));
        JsonNode json = checked(scenario, MirrorBench.run(scenario, warm, SharedKafka.cluster(), SharedKafka.second()));
        assertTrue(json.get("warm").asText().contains("copied the topic once"), json.toString());
        for (String system : List.of("plain-copier", "sluice")) {
            JsonNode result = json.get("results").get(system);
            assertEquals(scenario.records(), result.get("target_records").asInt(), system + ": " + result);
            assertEquals(0, result.get("duplicates").asInt(), system + ": " + result);
        }
        assertEquals(0, json.get("results").get("sluice").get("failover_reread").asInt(), json.toString());
        assertTrue(SharedKafka.second().admin().listTopics().names().get().stream().noneMatch(t -> t.startsWith("warm-")),
                "the warm-up copies are deleted");
        Scenario command = Scenario.named("mirror", true).onlySystems(List.of("sluice-command"));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> MirrorBench.run(command, warm));
        assertTrue(refused.getMessage().contains("sluice-command"), refused.getMessage());
    }

    /**
     * The merge's smoke form, two rounds: two inputs on the test kit's two clusters, merged into a topic on the first
     * and mirrored there, every record of both inputs once in the target for both systems; each merge passes the
     * merge audit (MergeRun fails the run otherwise), and the second round's output is the first's (MergeBench fails
     * the run otherwise).
     */
    @Test
    void theMergeSmokeFormMergesEveryRecordOnceAndTheSameInEveryRound() throws Exception {
        Scenario scenario = Scenario.named("merge", true);
        JsonNode json = new ObjectMapper().readTree(MergeBench.run(scenario, new BenchMain.Runs(2, true, false, false),
                SharedKafka.cluster(), SharedKafka.second(), SharedKafka.cluster()));
        assertEquals("merge", json.get("scenario").asText());
        for (String system : scenario.systems()) {
            JsonNode result = json.get("results").get(system);
            assertTrue(result.get("records_per_sec").asDouble() > 0, system + ": " + result);
            assertEquals(scenario.records(), result.get("target_records").asInt(), system + ": " + result);
            assertEquals(0, result.get("duplicates").asInt(), system + ": " + result);
            assertEquals(2, result.get("runs").size(), system + ": " + result);
            // measured, but a few thousand records can take less CPU than the OS's CPU-time tick (10 ms)
            assertTrue(result.get("cpu_us_per_record").asDouble() >= 0, system + ": " + result);
        }
        assertEquals(0, json.get("results").get("sluice-merge").get("late_records").asInt(), json.toString());
        assertTrue(json.get("ratios").has("sluice-merge/sluice-mirror"), "the rate's ratio too: " + json);
        assertTrue(json.get("goals").get("sluice-merge/sluice-mirror cpu_us_per_record").has("at_most"),
                json.toString());
    }

    /**
     * The acks table's smoke form on three brokers of its own (it kills one in every trial): every row sends its
     * records through a leader's kill -9 and restart and accounts for each of them, the safe row losing and doubling
     * none. Loss and duplicates of the other rows are what the table shows, not failures.
     */
    @Test
    void theAcksSmokeFormAccountsForEveryRecordOfEveryRow() throws Exception {
        Scenario scenario = Scenario.named("acks", true);
        JsonNode json;
        try (KafkaCluster trio = KafkaCluster.builder().name("acks-smoke").nodes(3).start()) {
            json = new ObjectMapper().readTree(AcksBench.run(scenario, BenchMain.Runs.smokeOnce(), trio,
                    AcksTrial.LOW_TIMEOUTS));
        }
        assertEquals("acks", json.get("scenario").asText());
        for (String row : scenario.systems()) {
            JsonNode result = json.get("results").get(row);
            assertTrue(result.get("records_per_sec").asDouble() > 0, row + ": " + result);
            assertEquals(0, result.get("pending").asLong(), row + ": " + result);
            assertEquals(result.get("sent").asLong(),
                    result.get("acknowledged").asLong() + result.get("unacknowledged").asLong(), row + ": " + result);
            assertTrue(result.get("acknowledged_after_kill").asLong() > 0, row + ": " + result);
        }
        JsonNode safe = json.get("results").get(scenario.baseline());
        assertEquals(0, safe.get("acknowledged_lost").asLong(), safe.toString());
        assertEquals(0, safe.get("duplicates").asLong(), safe.toString());
        assertTrue(json.get("ratios").has("acks=1/async/" + scenario.baseline()), json.toString());
    }

    /**
     * The produce benchmark's smoke form on the test kit's broker: every system sends the file's lines, counted back
     * by a read_committed reader, each line there at least once, Sluice's exactly-once import each exactly once; kcat
     * runs only where it is installed, and is reported as left out elsewhere.
     */
    @Test
    void theProduceSmokeFormFindsEveryLineInTheTopicAndTheExactlyOnceImportEachOnce() throws Exception {
        Scenario scenario = Scenario.named("produce", true);
        JsonNode json = checked(scenario, ProduceBench.run(scenario, BenchMain.Runs.smokeOnce(),
                SharedKafka.cluster()));
        for (String system : scenario.systems()) {
            JsonNode result = json.get("results").get(system);
            if (result == null) {
                assertTrue(system.equals("kcat") && json.get("left_out").has("kcat"), json.toString());
                continue;
            }
            assertTrue(result.get("topic_records").asLong() >= scenario.records(), system + ": " + result);
            // measured, but a few thousand records can take less CPU than the OS's CPU-time tick (10 ms)
            assertTrue(result.get("cpu_us_per_record").asDouble() >= 0, system + ": " + result);
            if (!system.equals("producer-perf")) {
                assertEquals(0, result.get("missing").asLong(), system + ": " + result);
            }
        }
        JsonNode eos = json.get("results").get("sluice-eos");
        assertEquals(scenario.records(), eos.get("topic_records").asLong(), eos.toString());
        assertEquals(0, eos.get("duplicates").asLong(), eos.toString());
        assertTrue(json.get("goals").has("sluice-eos/producer-perf"), json.toString());
        assertTrue(json.get("goals").has("sluice/console-producer"), json.toString());
    }

    /** Runs the smoke form and checks what every scenario with a broker reports: a rate per system, the ratios. */
    private static JsonNode smoke(String name) throws Exception {
        Scenario scenario = Scenario.named(name, true);
        return checked(scenario, BenchMain.run(scenario, BenchMain.Runs.smokeOnce(), SharedKafka.cluster()));
    }

    private static JsonNode checked(Scenario scenario, String output) throws Exception {
        String name = scenario.name();
        JsonNode json = new ObjectMapper().readTree(output);
        assertEquals(name, json.get("scenario").asText());
        assertEquals(scenario.records(), json.get("records").asInt());
        for (String system : scenario.systems()) {
            JsonNode result = json.get("results").get(system);
            if (result == null) {
                // a peer that cannot be had here (kcat without its package) is named as left out, never dropped
                assertTrue(json.path("left_out").has(system), system + " neither ran nor was left out: " + json);
                continue;
            }
            assertTrue(result.get("records_per_sec").asDouble() > 0, system + " handled records: " + json);
        }
        assertTrue(json.get("ratios").has("sluice/" + scenario.baseline()), json.toString());
        return json;
    }

    @Test
    void theCodecsSmokeFormMeasuresEveryCodecOnTheSamePayload() throws Exception {
        Scenario scenario = Scenario.named("codecs", true);
        JsonNode json = new ObjectMapper().readTree(BenchMain.run(scenario, BenchMain.Runs.smokeOnce()));
        JsonNode results = json.get("results");
        long plain = results.get("none").get("plain_bytes").asLong();
        assertEquals(plain, results.get("none").get("compressed_bytes").asLong(), "none stores the bytes as they are");
        for (String codec : scenario.systems()) {
            JsonNode r = results.get(codec);
            assertEquals(plain, r.get("plain_bytes").asLong(), codec + " saw the same JSON Lines: " + r);
            assertTrue(r.get("compress_mb_per_sec").asDouble() > 0 && r.get("decompress_mb_per_sec").asDouble() > 0,
                    codec + ": " + r);
            if (!codec.equals("none")) {
                assertTrue(r.get("compressed_bytes").asLong() < plain, codec + " compresses log lines: " + r);
            }
        }
    }
}
