package io.sluice.mirror.copy;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Where the copying of each source partition this member owns stands, found per record by its topic and partition
 * number without allocating: a lookup keyed by a new {@link TopicPartition}, and a boxed offset stored per record,
 * showed in the mirror's profile. A cursor also keeps the partition's {@link TopicPartition} made once, which the
 * writes' own per-partition lookups then find by identity.
 *
 * <p>Threading: {@link #open} and {@link #close} from the partitions' lanes, several partitions at once, so they copy
 * the topic's array on write under a lock; a cursor is read and moved only by its partition's lane, which finds it
 * through the map's happens-before edge; {@link #anySending} from any thread.
 */
final class Cursors {

    /** One source partition's copying: its lane's only. */
    static final class Cursor {
        final TopicPartition source;
        final String targetTopic;
        /** The offset after the last record taken: the checkpoint. */
        long next;
        /** The last copy sent since the last checkpoint; null when none. */
        Future<RecordMetadata> lastCopy;
        /** The checkpoint's data ({@link CopyBounds}): as committed, until a checkpoint after a copy moves it. */
        CopyBounds bounds;
        /**
         * This run's first copy and the source offset it came from, while it is to be learned: when no copy was
         * committed before the run ({@link CopyBounds#beforeTheFirstCopy}), until a checkpoint records it.
         */
        Future<RecordMetadata> firstCopy;
        long firstCopySource;
        boolean learnsFirstCopy;
        /** Copies sent since the last checkpoint, and their key and value bytes. */
        long sentRecords;
        long sentBytes;
        /**
         * Whether the lane is in a send: written by the lane, read by a {@code TargetReach} on another thread (a send
         * can wait up to {@code max.block.ms} for the target's metadata, with nothing in the producer's buffer yet).
         */
        volatile boolean sending;
        /**
         * Since when (nanos) the lane's checkpoint waits for this partition's copies to be acknowledged, or 0: written
         * by the lane, read by a {@code TargetReach} and a {@code TargetBrokers} on another thread. A send's wait is
         * not one (a full buffer, another broker's fault, can hold it): only a wait for the partition's own copies says
         * which broker holds them.
         */
        volatile long waitingSince;
        /** Per checkpoint not answered yet: its offset, and the copies and bytes sent before it. */
        final ArrayDeque<long[]> awaitingCommit = new ArrayDeque<>();

        private Cursor(TopicPartition source, String targetTopic, long next, CopyBounds bounds) {
            this.source = source;
            this.targetTopic = targetTopic;
            this.next = next;
            this.bounds = bounds;
            this.learnsFirstCopy = bounds.beforeTheFirstCopy();
        }
    }

    private final Map<String, Cursor[]> byTopic = new ConcurrentHashMap<>();

    synchronized Cursor open(TopicPartition source, String targetTopic, long next, CopyBounds bounds) {
        Cursor cursor = new Cursor(source, targetTopic, next, bounds);
        Cursor[] earlier = byTopic.getOrDefault(source.topic(), new Cursor[0]);
        Cursor[] grown = Arrays.copyOf(earlier, Math.max(earlier.length, source.partition() + 1));
        grown[source.partition()] = cursor;
        byTopic.put(source.topic(), grown);
        return cursor;
    }

    /** The open partition's cursor; throws when the partition is not open here (a lane's call out of order). */
    Cursor of(String topic, int partition) {
        Cursor[] cursors = byTopic.get(topic);
        Cursor cursor = cursors == null || partition >= cursors.length ? null : cursors[partition];
        if (cursor == null) {
            throw new IllegalStateException(topic + "-" + partition + " is not open in the mirror's sink");
        }
        return cursor;
    }

    Cursor of(TopicPartition source) {
        return of(source.topic(), source.partition());
    }

    synchronized void close(TopicPartition source) {
        Cursor[] earlier = byTopic.get(source.topic());
        if (earlier != null && source.partition() < earlier.length) {
            Cursor[] left = earlier.clone();
            left[source.partition()] = null;
            if (Arrays.stream(left).allMatch(Objects::isNull)) {
                byTopic.remove(source.topic()); // a topic of a pattern may never come back
            } else {
                byTopic.put(source.topic(), left);
            }
        }
    }

    /** Whether any partition's lane waits on the target now (a send, a checkpoint); from any thread. */
    boolean anySending() {
        for (Cursor[] cursors : byTopic.values()) {
            for (Cursor cursor : cursors) {
                if (cursor != null && (cursor.sending || cursor.waitingSince != 0)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The partitions whose checkpoint waits for their copies' acknowledgements now, by target partition, since when. */
    Map<TopicPartition, Long> waiting() {
        Map<TopicPartition, Long> waiting = new HashMap<>();
        for (Cursor[] cursors : byTopic.values()) {
            for (Cursor cursor : cursors) {
                long since = cursor == null ? 0 : cursor.waitingSince;
                if (since != 0) {
                    waiting.put(new TopicPartition(cursor.targetTopic, cursor.source.partition()), since);
                }
            }
        }
        return waiting;
    }

    /** How many topics have a partition open here. */
    int topics() {
        return byTopic.size();
    }
}
