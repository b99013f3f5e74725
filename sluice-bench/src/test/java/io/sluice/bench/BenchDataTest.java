package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The benchmark's log lines: valid JSON of the exact size, with the schema's fields, and the same every time. */
class BenchDataTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void valuesAreJsonOfTheScenarioSizeWithTheSchemasFieldsInOrder() throws Exception {
        Scenario scenario = Scenario.named("archive-jsonl", true);
        JsonNode schema = JSON.readTree(BenchData.LOG_SCHEMA).get("fields");
        BenchData.Generator generator = BenchData.generator(scenario);
        Set<String> categories = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            generator.nextKey();
            byte[] value = generator.nextValue();
            assertEquals(scenario.valueBytes(), value.length);
            JsonNode line = JSON.readTree(value);
            List<String> names = new ArrayList<>();
            line.fieldNames().forEachRemaining(names::add);
            assertEquals(schema.size(), names.size(), line.toString());
            for (int f = 0; f < schema.size(); f++) {
                JsonNode field = schema.get(f);
                assertEquals(field.get("name").asText(), names.get(f));
                boolean number = !field.get("type").isTextual() || !field.get("type").asText().equals("string");
                assertEquals(number, line.get(names.get(f)).isNumber(), names.get(f) + " in " + line);
            }
            categories.add(line.get("category").asText());
        }
        assertTrue(categories.size() > 1, "records spread over categories: " + categories);
    }

    @Test
    void eachValueTellsItsPositionInTheSequence() throws Exception {
        BenchData.Generator generator = BenchData.generator(Scenario.named("mirror", true));
        for (int i = 0; i < 500; i++) {
            generator.nextKey();
            byte[] value = generator.nextValue();
            assertEquals(i, BenchData.seqOf(value));
            assertEquals(JSON.readTree(value).get("seq").asInt(), BenchData.seqOf(value));
        }
    }

    @Test
    void theSequenceIsTheSameEveryTime() {
        Scenario scenario = Scenario.named("codecs", true);
        BenchData.Generator first = BenchData.generator(scenario);
        BenchData.Generator second = BenchData.generator(scenario);
        for (int i = 0; i < 100; i++) {
            assertEquals(new String(first.nextKey()), new String(second.nextKey()));
            assertEquals(new String(first.nextValue()), new String(second.nextValue()));
        }
    }
}
