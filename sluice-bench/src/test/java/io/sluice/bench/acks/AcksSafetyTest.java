package io.sluice.bench.acks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.bench.Scenario;
import io.sluice.local.kafka.KafkaCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The safety claim of the acks table, on three real brokers: with acks=all and idempotence (the settings every Sluice
 * producer has by default), a {@code kill -9} of the broker leading most partitions while records are in flight, and
 * its restart, lose no acknowledged record and write none twice, and the producer gives every record an outcome.
 * Timeouts are lowered ({@link AcksTrial#LOW_TIMEOUTS}).
 */
@Tag("slow")
class AcksSafetyTest {

    private static KafkaCluster kafka;

    @BeforeAll
    static void startThreeBrokers() {
        kafka = KafkaCluster.builder().name("acks-safety").nodes(3).start();
    }

    @AfterAll
    static void stopThem() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"all+idem/async", "all+idem/sync"})
    void anIdempotentAcksAllProducerLosesAndDoublesNothingWhenTheLeaderIsKilledMidRun(String row) {
        AcksMode mode = AcksMode.named(row);
        AcksOutcome outcome = new AcksTrial(kafka, Scenario.named("acks", true).withRecords(20_000), mode,
                AcksTrial.LOW_TIMEOUTS).run();

        assertEquals(0, outcome.acknowledgedLost(), "acknowledged records lost: " + outcome);
        assertEquals(0, outcome.duplicates(), "records written twice: " + outcome);
        assertEquals(0, outcome.pending(), "records without an outcome: " + outcome);
        assertEquals(outcome.records(), outcome.acknowledged() + outcome.unacknowledged(),
                "every record acknowledged or reported failed: " + outcome);
        // the kill landed mid-run: records were in flight (async) and the producer went on through the failover
        assertTrue(mode.sync() || outcome.inFlightAtKill() > 0, "nothing was in flight at the kill: " + outcome);
        assertTrue(outcome.acknowledgedAfterKill() > 0, "nothing acknowledged after the kill: " + outcome);
    }
}
