package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The merge benchmark's inputs: a topic on each of two clusters, west and east, each with half of the scenario's
 * records (its log lines over its keys and partitions), written with the record timestamps the merge orders by. Each
 * input's times rise strictly, by 7 ms a record on average, and east's run {@link #EAST_BEHIND_MILLIS} behind west's,
 * so the two overlap from end to end as the streams of one service in two data centers do; each value's {@code ts}
 * is its record's timestamp. East's {@code seq} fields go on from west's, so a reader of the output tells every
 * record apart. The same scenario and start give the same records, in the same partitions, at the same offsets.
 *
 * @param startMillis west's first time: recent, since a broker deletes records older than its retention (7 days)
 */
record MergeInputs(KafkaCluster west, String westTopic, KafkaCluster east, String eastTopic, long startMillis) {

    static final long EAST_BEHIND_MILLIS = 3_000;
    private static final int STEP_MILLIS = 7;

    /** Creates both topics and writes both inputs at once. */
    static MergeInputs write(Scenario scenario, KafkaCluster west, KafkaCluster east, long startMillis) {
        MergeInputs inputs = new MergeInputs(west, Names.unique("merge-west"), east, Names.unique("merge-east"),
                startMillis);
        west.createTopic(inputs.westTopic, scenario.partitions());
        east.createTopic(inputs.eastTopic, scenario.partitions());
        long start = System.nanoTime();
        CompletableFuture<Void> eastWritten = CompletableFuture.runAsync(() -> inputs.write(scenario, 1));
        inputs.write(scenario, 0);
        eastWritten.join();
        BenchMain.log("wrote %,d records to each input in %.1f s", perInput(scenario),
                (System.nanoTime() - start) / 1e9);
        return inputs;
    }

    /** Each input's share of the scenario's records. */
    static int perInput(Scenario scenario) {
        return scenario.records() / 2;
    }

    /** Reads both inputs once, untimed, as {@link BenchMain#warmUp} does for one topic. */
    void warmUp(Scenario scenario) {
        BenchMain.warmUp(west, westTopic, scenario.partitions(), perInput(scenario));
        BenchMain.warmUp(east, eastTopic, scenario.partitions(), perInput(scenario));
    }

    /** Input 0 (west) or 1 (east). */
    private void write(Scenario scenario, int input) {
        KafkaCluster cluster = input == 0 ? west : east;
        String topic = input == 0 ? westTopic : eastTopic;
        int records = perInput(scenario);
        BenchData.Generator generator = BenchData.generator(scenario, 1_000 + input, input * records);
        Random jitter = new Random(2_000 + input);
        long base = startMillis - input * EAST_BEHIND_MILLIS;
        try (var producer = BenchData.producer(cluster.clientProperties(Listener.PLAINTEXT))) {
            for (int i = 0; i < records; i++) {
                // a jitter below the step keeps the times strictly rising: i*7 + j(i) < (i+1)*7 + j(i+1)
                long time = base + (long) i * STEP_MILLIS + jitter.nextInt(STEP_MILLIS);
                byte[] key = generator.nextKey();
                producer.send(new ProducerRecord<>(topic, null, time, key, generator.nextValue(time)));
            }
            producer.flush();
        }
    }
}
