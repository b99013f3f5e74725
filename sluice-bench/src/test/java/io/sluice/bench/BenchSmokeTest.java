package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The smoke form of each benchmark: tiny sizes, one round, the same code as a real run. It checks that every system
 * runs and that the last line stays the JSON tools read; it measures nothing (speed is shown by bench/run).
 */
class BenchSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"engine-cpu", "engine-io"})
    void theSmokeFormRunsEverySystemAndEndsWithValidJson(String name) throws Exception {
        Scenario scenario = Scenario.named(name, true);
        JsonNode json = new ObjectMapper().readTree(BenchMain.run(scenario, 1, true));
        assertEquals(name, json.get("scenario").asText());
        assertEquals(scenario.records(), json.get("records").asInt());
        for (String system : scenario.systems()) {
            double rate = json.get("results").get(system).get("records_per_sec").asDouble();
            assertTrue(rate > 0, system + " handled records: " + json);
        }
        assertTrue(json.get("ratios").has("sluice/" + scenario.baseline()), json.toString());
    }
}
