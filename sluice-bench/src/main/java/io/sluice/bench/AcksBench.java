package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.acks.AcksMode;
import io.sluice.bench.acks.AcksTrial;
import io.sluice.local.kafka.KafkaCluster;
import java.util.Map;

/**
 * {@code bench/run acks}: every row of the acks table is one system, run as an {@link AcksTrial} in the benchmark's
 * own JVM (it kills and restarts a broker of the cluster it started), round after round on one three-node cluster,
 * each trial on a topic of its own. The producer runs with Kafka's defaults besides the row's settings.
 *
 * <p>Threading: the main thread only.
 */
final class AcksBench {

    private AcksBench() {
    }

    static String run(Scenario scenario, BenchMain.Runs runs) {
        try (KafkaCluster kafka = KafkaCluster.builder().name("bench-acks").nodes(3)
                .jvmOptions(runs.smoke() ? KafkaCluster.TEST_JVM_OPTIONS : BenchMain.BROKER_JVM).start()) {
            return run(scenario, runs, kafka, Map.of());
        }
    }

    /**
     * On a three-node cluster that is up already (the smoke test starts its own).
     *
     * @param client producer settings over Kafka's defaults, such as a test's lower timeouts
     */
    static String run(Scenario scenario, BenchMain.Runs runs, KafkaCluster kafka, Map<String, Object> client) {
        ObjectMapper json = new ObjectMapper();
        return BenchMain.runRounds(scenario, runs, (system, runDir) -> json.valueToTree(
                new AcksTrial(kafka, scenario, AcksMode.named(system), client).run().figures()));
    }
}
