package io.sluice.reassign.journal;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.plan.PlanFile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the journal topic from its start to its end (no consumer group, nothing committed) and keeps the last
 * record of each key: the configs runs changed and did not restore. Before compaction the topic also holds older
 * records and tombstones; reading them in order gives the same answer.
 *
 * <p>Threading: stateless; each read has its own consumer.
 */
final class ClusterJournalReader {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ClusterJournalReader() {
    }

    static List<ClusterJournalRecord> read(Map<String, Object> client) {
        Map<String, Object> props = new HashMap<>(client);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-reassign-check");
        Map<String, ClusterJournalRecord> live = new LinkedHashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(ClusterJournal.TOPIC, TIMEOUT)) {
                partitions.add(new TopicPartition(p.topic(), p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, TIMEOUT);
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp, TIMEOUT) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new ClusterException("cannot read the journal topic " + ClusterJournal.TOPIC + " to its end "
                            + "within " + TIMEOUT.toSeconds() + " s", null);
                }
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    if (record.value() == null) {
                        live.remove(record.key());
                    } else {
                        live.put(record.key(), parse(record));
                    }
                }
            }
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new ClusterException("cannot read the journal topic " + ClusterJournal.TOPIC + ": " + e.getMessage(),
                    e);
        }
        return List.copyOf(live.values());
    }

    private static ClusterJournalRecord parse(ConsumerRecord<String, String> record) {
        try {
            return PlanFile.json().readValue(record.value(), ClusterJournalRecord.class);
        } catch (JsonProcessingException e) {
            throw new ClusterException("the journal topic " + ClusterJournal.TOPIC + " holds a record that is not a "
                    + "journal record at offset " + record.offset() + " (key " + record.key() + "): "
                    + e.getOriginalMessage(), e);
        }
    }
}
