package io.sluice.core.internal.failure;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Dead letters held per source partition until the commit that covers their records sends them
 * ({@link DeadLettersInCommit}), so that a letter becomes visible exactly when its record's offset is committed.
 *
 * <p>Keyed by source offset: a record processed twice by this member (a partition lost and assigned back while a
 * worker still ran its record) leaves one letter, not two.
 *
 * <p>Threading: safe for concurrent use: workers add letters, the consumer thread takes, restores and drops them.
 */
public final class PendingDeadLetters implements DeadLetters {

    private final String topic;
    private final String group;
    /** The consumed topics' IDs, which each letter names. */
    private final Function<String, Uuid> topicIds;
    /** Guarded by this. */
    private final Map<TopicPartition, TreeMap<Long, ProducerRecord<byte[], byte[]>>> pending = new HashMap<>();

    /** @param group the engine's consumer group, which each letter names ({@link DeadLetterRecord}) */
    public PendingDeadLetters(String topic, String group, Function<String, Uuid> topicIds) {
        this.topic = topic;
        this.group = group;
        this.topicIds = topicIds;
    }

    /** Holds the letter; it is sent with the first commit whose offset for the partition is beyond the record. */
    @Override
    public void deadLetter(ConsumerRecord<byte[], byte[]> record, Throwable error, int attempts) {
        ProducerRecord<byte[], byte[]> letter = DeadLetterRecord.of(topic, group, topicIds, record, error, attempts);
        synchronized (this) {
            pending.computeIfAbsent(new TopicPartition(record.topic(), record.partition()), tp -> new TreeMap<>())
                    .put(record.offset(), letter);
        }
    }

    @Override
    public String topic() {
        return topic;
    }

    /**
     * Takes the letters a commit of {@code offsets} must carry: of each partition in it, those whose source offset is
     * below the committed one. Letters of later records stay for a later commit.
     */
    public synchronized Batch takeBelow(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicPartition, NavigableMap<Long, ProducerRecord<byte[], byte[]>>> taken = new HashMap<>();
        offsets.forEach((tp, oam) -> {
            TreeMap<Long, ProducerRecord<byte[], byte[]>> letters = pending.get(tp);
            if (letters == null || oam == null) {
                return;
            }
            NavigableMap<Long, ProducerRecord<byte[], byte[]>> below = letters.headMap(oam.offset(), false);
            if (!below.isEmpty()) {
                taken.put(tp, new TreeMap<>(below));
                below.clear();
            }
            if (letters.isEmpty()) {
                pending.remove(tp);
            }
        });
        return new Batch(taken);
    }

    /**
     * Puts back the letters of a commit that certainly did not happen: their records' offsets are not committed, so
     * a later commit must carry them. A letter held again meanwhile for the same record wins (it is the newer).
     */
    public synchronized void restore(Batch batch) {
        batch.letters.forEach((tp, letters) -> {
            TreeMap<Long, ProducerRecord<byte[], byte[]>> into = pending.computeIfAbsent(tp, k -> new TreeMap<>());
            letters.forEach(into::putIfAbsent);
        });
    }

    /**
     * Forgets the letters of partitions this member no longer owns, or owns anew: their records are beyond the
     * partition's committed offset, and whoever owns it processes them again.
     */
    public synchronized void drop(Collection<TopicPartition> partitions) {
        partitions.forEach(pending::remove);
    }

    /** Letters held, for stats and tests. */
    public synchronized int size() {
        return pending.values().stream().mapToInt(TreeMap::size).sum();
    }

    /** Letters taken for one commit, by source partition and offset. */
    public static final class Batch {
        private final Map<TopicPartition, NavigableMap<Long, ProducerRecord<byte[], byte[]>>> letters;

        Batch(Map<TopicPartition, NavigableMap<Long, ProducerRecord<byte[], byte[]>>> letters) {
            this.letters = letters;
        }

        public boolean isEmpty() {
            return letters.isEmpty();
        }

        /** The letters in source offset order per partition. */
        public List<ProducerRecord<byte[], byte[]>> records() {
            List<ProducerRecord<byte[], byte[]>> all = new ArrayList<>();
            letters.values().forEach(l -> all.addAll(l.values()));
            return all;
        }

        /** The source offsets of the letters, by partition. */
        public Map<TopicPartition, List<Long>> offsets() {
            Map<TopicPartition, List<Long>> offsets = new HashMap<>();
            letters.forEach((tp, l) -> offsets.put(tp, List.copyOf(l.keySet())));
            return offsets;
        }

        /** This batch without the letters of {@code partitions}, which went with their partitions. */
        public Batch without(Collection<TopicPartition> partitions) {
            Map<TopicPartition, NavigableMap<Long, ProducerRecord<byte[], byte[]>>> kept = new HashMap<>(letters);
            partitions.forEach(kept::remove);
            return new Batch(kept);
        }
    }
}
