package io.sluice.audit;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The expected side: which offsets of each audited partition Kafka returns read_committed, from the requested start
 * (or the log start) to the requested end (or the last stable offset when the audit started).
 *
 * <p>Threading: {@link #run} on one thread; its result is handed over when it returns.
 */
final class KafkaScan {

    private KafkaScan() {
    }

    /** The audited partitions with their ranges, before reading. */
    static SortedMap<Integer, KafkaPartition> plan(AuditConfig config, TopicSnapshot snapshot) throws AuditException {
        SortedMap<Integer, KafkaPartition> plan = new TreeMap<>();
        if (config.ranges().isEmpty()) {
            snapshot.partitions.forEach((p, b) -> plan.put(p, new KafkaPartition(p, b.logStart(), b.logStart(),
                    b.lastStable(), b.lastStable())));
            return plan;
        }
        for (Map.Entry<Integer, AuditConfig.OffsetRange> e : config.ranges().entrySet()) {
            TopicSnapshot.Bounds b = snapshot.partitions.get(e.getKey());
            if (b == null) {
                throw new AuditException("partition " + e.getKey() + " does not exist: " + config.topic() + " has "
                        + "partitions 0.." + (snapshot.partitions.size() - 1));
            }
            plan.put(e.getKey(), new KafkaPartition(e.getKey(), e.getValue().from(), b.logStart(), b.lastStable(),
                    Math.min(e.getValue().until(), b.lastStable())));
        }
        return plan;
    }

    /** Fills each planned partition's present offsets. */
    static void run(AuditConfig config, SortedMap<Integer, KafkaPartition> plan) throws AuditException {
        Map<TopicPartition, CommittedReader.Range> ranges = new HashMap<>();
        plan.forEach((p, k) -> ranges.put(new TopicPartition(config.topic(), p),
                new CommittedReader.Range(k.from, k.until)));
        new CommittedReader(config.kafkaProperties(), config.timeout()).read(ranges, new CommittedReader.Visitor() {
            @Override
            public void record(ConsumerRecord<Void, Void> record) {
                plan.get(record.partition()).present.add(record.offset());
            }

            @Override
            public void logStartMoved(TopicPartition partition, long logStart) {
                plan.get(partition.partition()).logStartMoved(logStart);
            }
        });
    }
}
