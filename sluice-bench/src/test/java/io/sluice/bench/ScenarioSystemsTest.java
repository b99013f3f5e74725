package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --systems}: an A/B run of one system keeps the baseline every ratio is against, and nothing else. */
class ScenarioSystemsTest {

    @Test
    void keepsTheBaselineAndOnlyTheRatiosBetweenKeptSystems() {
        Scenario all = Scenario.named("engine-cpu", true);
        Scenario some = all.onlySystems(List.of("sluice"));
        assertEquals(List.of("plain-consumer", "sluice"), some.systems());
        assertEquals(all.baseline(), some.baseline());
        assertTrue(some.ratios().stream().allMatch(r -> some.systems().contains(r.system())
                && some.systems().contains(r.against())), "ratios " + some.ratios());
        assertTrue(some.ratios().size() < all.ratios().size(), "the ratio against Parallel Consumer is dropped");
    }

    @Test
    void refusesASystemTheScenarioDoesNotHave() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Scenario.named("engine-cpu", true).onlySystems(List.of("sluice", "connect-sink")));
        assertTrue(e.getMessage().contains("connect-sink"), e.getMessage());
    }
}
