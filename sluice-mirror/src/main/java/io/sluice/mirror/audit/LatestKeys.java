package io.sluice.mirror.audit;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The last record of each key on one side of a compacted partition, by source offset: on the source side the source
 * records themselves, on the target side the copies of the source's records (by the source offset their provenance
 * names). It is what compaction keeps, and so what tells a record compacted away from one lost.
 *
 * <p>Memory grows with the number of distinct keys, not of records: a compacted topic is one whose key space is
 * bounded (compaction keeps one record per key, so a topic with unbounded keys could not be compacted either).
 * Records without a key are left out: a compacted topic refuses them, and no compaction rule applies to them.
 *
 * <p>Threading: one thread.
 */
final class LatestKeys {

    /** The last record of a key: its source offset, whether it is a tombstone, and its timestamp. */
    record Latest(long offset, boolean tombstone, long timestamp) {
    }

    private final Map<ByteBuffer, Latest> latest = new HashMap<>();

    private LatestKeys() {
    }

    /** The last source record of each key in {@code records} (a source partition read read_committed). */
    static LatestKeys ofSource(Iterator<ConsumerRecord<byte[], byte[]>> records) {
        LatestKeys keys = new LatestKeys();
        records.forEachRemaining(r -> keys.note(r, r.offset()));
        return keys;
    }

    /**
     * The copy of the latest source offset of each key among {@code records} (a target partition read read_committed)
     * whose last hop names {@code sourceCluster}; records from elsewhere are left out.
     */
    static LatestKeys ofCopies(Iterator<ConsumerRecord<byte[], byte[]>> records, String sourceCluster) {
        LatestKeys keys = new LatestKeys();
        records.forEachRemaining(r -> PartitionComparison.copiedFrom(r, sourceCluster)
                .ifPresent(offset -> keys.note(r, offset)));
        return keys;
    }

    /** The last record of {@code key}, if this side holds one. */
    Optional<Latest> of(byte[] key) {
        return Optional.ofNullable(latest.get(ByteBuffer.wrap(key)));
    }

    private void note(ConsumerRecord<byte[], byte[]> record, long offset) {
        if (record.key() == null) {
            return;
        }
        // copies usually come in source order, but a late copy must not hide the later one
        latest.merge(ByteBuffer.wrap(record.key()), new Latest(offset, record.value() == null, record.timestamp()),
                (old, now) -> now.offset() > old.offset() ? now : old);
    }
}
