package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.local.kafka.KafkaCluster;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * {@code bench/run merge} (issue 15): two inputs on two clusters, west and east ({@link MergeInputs}), merged into
 * a topic on a third by Sluice's merge, and copied there by two of Sluice's mirrors, the same records copied instead
 * of merged. A full run gives every run three fresh single-node clusters, their internal topics made ({@link
 * InternalTopics}) and both inputs just written and read once, as the mirror benchmark does; the smoke form shares
 * its clusters between runs (the smoke test: the test kit's two, the output on the first, west's).
 *
 * <p>Every merge's output must be the same, round after round: its provenance digest ({@link OutputDigest}) is
 * printed, and a round whose digest differs from the first fails the run. The inputs' times start at the same moment
 * in every round, so fresh inputs are the same records at the same offsets.
 *
 * <p>Threading: the main thread only.
 */
final class MergeBench {

    private MergeBench() {
    }

    static String run(Scenario scenario, BenchMain.Runs runs) {
        long start = startMillis();
        if (runs.smoke()) {
            try (Clusters clusters = Clusters.start("merge-west", "merge-east", "merge-target")) {
                return run(scenario, runs, clusters.get(0), clusters.get(1), clusters.get(2));
            }
        }
        SameOutput same = new SameOutput();
        return BenchMain.runRounds(scenario, runs, (system, runDir) -> {
            try (Clusters clusters = Clusters.start("merge-west", "merge-east", "merge-target")) {
                for (int i = 0; i < 3; i++) {
                    InternalTopics.create(clusters.get(i));
                }
                MergeInputs inputs = MergeInputs.write(scenario, clusters.get(0), clusters.get(1), start);
                inputs.warmUp(scenario);
                // the inputs just written are still dirty in the page cache: written back before, not during, the run
                BenchMain.writeBackDirtyPages();
                return same.check(system, new MergeRun(system, scenario, runs.jvmOptions(system, runDir), runDir)
                        .run(inputs, clusters.get(2)));
            }
        });
    }

    /** The smoke form on clusters that are up already; the target may be one of the inputs' clusters. */
    static String run(Scenario scenario, BenchMain.Runs runs, KafkaCluster west, KafkaCluster east,
            KafkaCluster target) {
        MergeInputs inputs = MergeInputs.write(scenario, west, east, startMillis());
        SameOutput same = new SameOutput();
        return BenchMain.runRounds(scenario, runs, (system, runDir) -> same.check(system,
                new MergeRun(system, scenario, runs.jvmOptions(system, runDir), runDir).run(inputs, target)));
    }

    /** Three hours ago, to the second: every input time is in the past, and well within the brokers' retention. */
    private static long startMillis() {
        return Instant.now().minus(Duration.ofHours(3)).truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
    }

    /**
     * The merge's outputs of every round compared with the first's.
     *
     * <p>Threading: the main thread only.
     */
    private static final class SameOutput {
        private String first;
        private int round;

        JsonNode check(String system, MergeRun.Result result) {
            if (result.digest().isEmpty()) {
                return result.figures();
            }
            String digest = result.digest().get();
            round++;
            BenchMain.log("%s output %d digest (per partition, of the inputs' records' places): %s", system, round,
                    digest);
            if (first == null) {
                first = digest;
            } else if (!first.equals(digest)) {
                throw new IllegalStateException(system + "'s output " + round + " differs from its first: " + digest
                        + " against " + first);
            }
            return result.figures();
        }
    }
}
