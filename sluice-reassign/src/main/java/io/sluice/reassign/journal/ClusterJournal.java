package io.sluice.reassign.journal;

import io.sluice.reassign.cluster.AdminCalls;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.plan.PlanFile;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The cluster's own journal of temporary configs: a compacted topic, {@value #TOPIC}, created on first use, that
 * holds one record per config a run changed and has not restored yet (keyed by run and config; a tombstone when it
 * is restored). Every {@code check}, on any machine, reads it to find temporary configs (throttles, the retention
 * guard's {@code retention.bytes}) whose run's journal file is gone, and their values before.
 *
 * <p>Each record is acknowledged by all in-sync replicas (an idempotent producer, acks=all) before the change it
 * names is made. The topic is created on brokers the run does not move replicas off, where it can.
 *
 * <p>Threading: one run's thread; the producer is made on the first record.
 */
public final class ClusterJournal implements JournalMirror, AutoCloseable {

    public static final String TOPIC = "sluice-reassign-journal";
    private static final long TIMEOUT_SECONDS = 60;

    private final Admin admin;
    private final Map<String, Object> client;
    private final Set<Integer> avoid;
    private KafkaProducer<String, String> producer;
    private boolean exists;

    /**
     * @param client the connection settings of the tool's clients (bootstrap servers, TLS, SASL)
     * @param avoid brokers not to create the topic on if others can hold it (those a run empties)
     */
    public ClusterJournal(Admin admin, Map<String, Object> client, Set<Integer> avoid) {
        this.admin = admin;
        this.client = Map.copyOf(client);
        this.avoid = Set.copyOf(avoid);
    }

    @Override
    public void changing(String run, Path journal, ConfigChange change) {
        ensureTopic();
        ClusterJournalRecord record = new ClusterJournalRecord(run, host(), journal.toAbsolutePath().toString(),
                System.currentTimeMillis(), change);
        send(record.key(), PlanFile.jsonLine(record), "record " + change);
    }

    @Override
    public void restored(String run, ConfigChange change) {
        if (exists()) {
            send(ClusterJournalRecord.key(run, change), null, "forget " + change);
        }
    }

    /** A mirror that only forgets restored configs, for runs that restore but never change (cancel, check). */
    public JournalMirror restoresOnly() {
        ClusterJournal self = this;
        return new JournalMirror() {
            @Override
            public void changing(String run, Path journal, ConfigChange change) {
            }

            @Override
            public void restored(String run, ConfigChange change) {
                self.restored(run, change);
            }
        };
    }

    /** The configs that runs changed and did not restore, per the topic; empty when there is no topic. */
    public List<ClusterJournalRecord> records() {
        return exists() ? ClusterJournalReader.read(client) : List.of();
    }

    boolean exists() {
        if (!exists) {
            exists = AdminCalls.get(admin.listTopics().names(), "list topics").contains(TOPIC);
        }
        return exists;
    }

    private void ensureTopic() {
        if (exists()) {
            return;
        }
        List<Integer> brokers = new ArrayList<>(AdminCalls.get(admin.describeCluster().nodes(), "describe the cluster")
                .stream().map(Node::id).toList());
        brokers.sort(Comparator.<Integer, Boolean>comparing(avoid::contains).thenComparing(b -> b));
        List<Integer> replicas = brokers.subList(0, Math.min(3, brokers.size()));
        Map<String, String> configs = new HashMap<>();
        configs.put("cleanup.policy", "compact");
        configs.put("min.insync.replicas", replicas.size() >= 3 ? "2" : "1");
        try {
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.copyOf(replicas))).configs(configs)))
                    .all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new ClusterException("cannot create the journal topic " + TOPIC + ": " + e.getCause().getMessage()
                        + " (give the tool's principal Create and Write on it, or keep the journal in its file only "
                        + "with --no-journal-topic)", e.getCause());
            }
        } catch (TimeoutException e) {
            throw new ClusterException("cannot create the journal topic " + TOPIC + ": no answer within "
                    + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while creating the journal topic " + TOPIC, e);
        }
        exists = true;
    }

    private void send(String key, String value, String doing) {
        try {
            producer().send(new ProducerRecord<>(TOPIC, key, value)).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new ClusterException("cannot " + doing + " in the journal topic " + TOPIC + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new ClusterException("cannot " + doing + " in the journal topic " + TOPIC + ": no answer within "
                    + TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted while writing the journal topic " + TOPIC, e);
        }
    }

    private KafkaProducer<String, String> producer() {
        if (producer == null) {
            Map<String, Object> props = new HashMap<>(client);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT_SECONDS * 1000);
            props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "sluice-reassign-journal");
            producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
        }
        return producer;
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "an unknown host";
        }
    }

    @Override
    public void close() {
        if (producer != null) {
            producer.close();
        }
    }
}
