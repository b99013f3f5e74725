package io.sluice.bench.acks;

import io.sluice.bench.BenchData;
import io.sluice.bench.Scenario;
import io.sluice.bench.TopicCopies;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.testkit.Names;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One acks trial (seed 003 on real brokers): on a three-node cluster, a fresh topic with replication factor 3,
 * {@code min.insync.replicas} 2 and unclean leader election off; the scenario's log lines, each carrying its sequence
 * number, produced with one {@link AcksMode}; a third of the way in, the broker leading most partitions is killed with
 * {@code kill -9} and started again; then a read_committed reader counts what the topic holds against what the
 * producer said of each record.
 *
 * <p>Async rows wait, at the kill, until half of what was sent has an outcome, so that the leader has acknowledged
 * records to lose and still has records in flight; the wait lets the producer drain, and costs their rate little.
 *
 * <p>Threading: {@link #run} on the caller's thread; the producer's callbacks on its I/O thread; the broker's restart
 * on a thread of the common pool.
 */
public final class AcksTrial {

    private static final Duration OUTCOME_TIMEOUT = Duration.ofMinutes(5);

    /**
     * Client timeouts for tests: a producer stuck on the dead broker fails a test in seconds, not in Kafka's two
     * minutes, and still outlasts a leader election (about 3 s on the test kit's brokers) many times over.
     */
    public static final Map<String, Object> LOW_TIMEOUTS = Map.of(
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000,
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 20_000);

    private final KafkaCluster cluster;
    private final Scenario scenario;
    private final AcksMode mode;
    private final Map<String, Object> client;

    /**
     * @param client producer settings over the cluster's PLAINTEXT client properties, such as a test's lower
     *               timeouts; empty for Kafka's defaults
     */
    public AcksTrial(KafkaCluster cluster, Scenario scenario, AcksMode mode, Map<String, Object> client) {
        if (cluster.nodes().size() < 3) {
            throw new IllegalArgumentException("an acks trial needs three brokers, not " + cluster.nodes().size());
        }
        this.cluster = cluster;
        this.scenario = scenario;
        this.mode = mode;
        this.client = new HashMap<>(cluster.clientProperties(Listener.PLAINTEXT));
        this.client.putAll(client);
    }

    public AcksOutcome run() {
        int records = mode.records(scenario.records());
        String topic = Names.unique("acks");
        cluster.createTopic(new NewTopic(topic, scenario.partitions(), (short) 3).configs(Map.of(
                "min.insync.replicas", "2", "unclean.leader.election.enable", "false")));
        LeaderKill kill = new LeaderKill(cluster, topic);
        DeliveryTally tally = new DeliveryTally(1);
        Deliveries deliveries = new Deliveries(records);
        BenchData.Generator generator = BenchData.generator(scenario);
        int killAt = records / 3;
        DeliverySnapshot atKill = null;
        long start = System.nanoTime();
        try (var producer = new KafkaProducer<>(mode.producerProperties(client), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int seq = 0; seq < records; seq++) {
                if (seq == killAt) {
                    awaitOutcomes(tally, seq / 2);
                    atKill = tally.snapshot();
                    kill.killAndRestart();
                }
                byte[] key = generator.nextKey();
                byte[] value = generator.nextValue();
                int s = seq;
                Callback callback = tally.sent("record " + seq, key.length + value.length,
                        (metadata, error) -> deliveries.record(s, error == null));
                send(producer, new ProducerRecord<>(topic, key, value), callback);
            }
            producer.flush();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        if (atKill == null) {
            throw new IllegalStateException(records + " records are too few for a kill a third of the way in");
        }
        kill.awaitBack();
        TopicCopies copies = TopicCopies.read(client, topic, records);
        return outcome(records, seconds, tally.snapshot(), atKill, deliveries, copies, kill.victimId());
    }

    /** Sends one record; a sync row waits for its outcome, which the callback has counted either way. */
    private void send(KafkaProducer<byte[], byte[]> producer, ProducerRecord<byte[], byte[]> record,
            Callback callback) {
        Future<RecordMetadata> sent;
        try {
            sent = producer.send(record, callback);
        } catch (KafkaException e) {
            callback.onCompletion(null, e); // send itself refused it (a full buffer for max.block.ms, say)
            return;
        }
        if (mode.sync()) {
            try {
                sent.get();
            } catch (ExecutionException e) {
                // counted as failed by the callback; the application goes on with the next record
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static void awaitOutcomes(DeliveryTally tally, long outcomes) {
        long deadline = System.nanoTime() + OUTCOME_TIMEOUT.toNanos();
        while (true) {
            DeliverySnapshot now = tally.snapshot();
            if (now.acknowledged() + now.failed() >= outcomes) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + (now.acknowledged() + now.failed()) + " of " + outcomes
                        + " sends had an outcome after " + OUTCOME_TIMEOUT);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private AcksOutcome outcome(int records, double seconds, DeliverySnapshot end, DeliverySnapshot atKill,
            Deliveries deliveries, TopicCopies copies, int killedBroker) {
        long lost = 0;
        long failedPresent = 0;
        long duplicates = 0;
        for (int seq = 0; seq < records; seq++) {
            int found = copies.of(seq);
            if (found == 0 && deliveries.acknowledged(seq)) {
                lost++;
            }
            if (found > 0 && deliveries.failed(seq)) {
                failedPresent++;
            }
            duplicates += Math.max(0, found - 1);
        }
        Optional<String> firstFailure = end.firstFailures().stream().findFirst().map(f -> f.toString());
        return new AcksOutcome(mode.name(), records, end.acknowledged(), lost, end.failed(), failedPresent,
                end.pending(), duplicates, seconds, end.ackP50().toNanos() / 1e6, end.ackP99().toNanos() / 1e6,
                atKill.pending(), end.acknowledged() - atKill.acknowledged(), killedBroker, firstFailure.orElse(null));
    }
}
