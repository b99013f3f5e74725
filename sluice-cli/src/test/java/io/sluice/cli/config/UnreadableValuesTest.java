package io.sluice.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.pipeline.MergeKeys;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A value not of its key's type reads as not set, so that the checks across keys run in the same pass, and what those
 * checks then say of that key is left out (it would be a guess at a value the user did not write).
 */
class UnreadableValuesTest {

    private static final String FILE = """
            merge:
              name: m
              inputs: [west, east]
              max-wait: soon
            input:
              west: {bootstrap-servers: "a:1", topic: t}
              east: {bootstrap-servers: "b:1", topic: t}
            target: {bootstrap-servers: "c:1", topic: out}
            """;

    private final Problems reported = new Problems();
    private final Settings settings;

    UnreadableValuesTest() throws ConfigException {
        settings = new SettingsReader(MergeKeys.CATALOG, Variables.of(Map.of())).read("m.yaml", FILE, reported);
    }

    @Test
    void theValueIsReportedAndReadsAsItsDefault() {
        assertTrue(reported.any());
        assertFalse(settings.isSet(MergeKeys.MAX_WAIT));
        assertEquals(MergeKeys.MAX_WAIT.defaultValue(), settings.get(MergeKeys.MAX_WAIT));
        assertEquals(new Position("m.yaml", 4, 13), settings.at(MergeKeys.MAX_WAIT), "it still points at the value");
    }

    @Test
    void aCheckThatNamesTheKeyOrPointsAtItsValueIsLeftOut() {
        Position elsewhere = new Position("m.yaml", 2, 9);
        assertTrue(settings.followsFromUnreadable(new ConfigProblem(elsewhere, "merge.max-wait must be below x")));
        assertTrue(settings.followsFromUnreadable(new ConfigProblem(elsewhere, "too short for merge.max-wait.")));
        assertTrue(settings.followsFromUnreadable(new ConfigProblem(settings.at(MergeKeys.MAX_WAIT), "anything")));
        assertFalse(settings.followsFromUnreadable(new ConfigProblem(elsewhere, "merge.max-waiting is not this key")));
        assertFalse(settings.followsFromUnreadable(new ConfigProblem(elsewhere, "xmerge.max-wait is not either")));
        assertFalse(settings.followsFromUnreadable(new ConfigProblem(elsewhere, "merge.inputs: another mistake")));
    }
}
