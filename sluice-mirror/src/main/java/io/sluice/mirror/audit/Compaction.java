package io.sluice.mirror.audit;

import io.sluice.mirror.audit.LatestKeys.Latest;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The rules by which a record one side of a compacted partition no longer holds is compacted away rather than lost.
 * Compaction keeps the last record of each key and removes the earlier ones; tombstones (null values) are removed too,
 * {@code delete.retention.ms} after the cleaner first saw them. So a record is compacted away on one side only when
 * that side's topic is compacted and either
 * <ul>
 *   <li>that side holds a record of the same key at a later source offset (it superseded the record), or</li>
 *   <li>that side holds nothing of the key at all, and the key's last record, as the other side holds it, is a
 *       tombstone at or after the record, at least {@code delete.retention.ms} of the dropping side old by its
 *       timestamp: the key was deleted and its tombstone expired.</li>
 * </ul>
 * Anything else stays a difference: an older record of the key kept while the record is gone is not what a cleaner
 * does, nor a fresh tombstone gone already.
 *
 * <p>Without the tombstone rule every audit of a compacted topic older than {@code delete.retention.ms} would fail,
 * and what it checks for sure is that the key's final state (deleted) is the same on both sides. The tombstone's age
 * is judged by its timestamp because the time the cleaner first saw it (which starts its {@code delete.retention.ms})
 * is not visible to clients; it is later than the record's append time, which a producer stamping the present puts
 * close to its timestamp. That rules out tombstones too fresh to have expired; a tombstone stamped in the future is
 * reported until its time has passed (loudly wrong for a while, never silently), and one with a historic timestamp (a
 * replay, a mirror of a mirror) passes the bound whatever its age.
 *
 * <p>Threading: one thread (the audit's).
 */
final class Compaction {

    /** Neither side compacted: every record gone is a difference. */
    static final Compaction NONE = new Compaction(CompactionPolicy.NONE, CompactionPolicy.NONE, null, null,
            Long.MIN_VALUE, 0);

    private final CompactionPolicy source;
    private final CompactionPolicy target;
    private final LatestKeys inSource;
    private final LatestKeys inTarget;
    private final long progress;
    private final long now;

    /**
     * The rules for a partition whose source and target topics have the policies {@code source} and {@code target}:
     * {@code inSource} is the last record of each key in the source partition (up to its last stable offset),
     * {@code inTarget} the last copy of each key in the target partition; {@code progress} is the source offset the
     * audit compares up to, {@code now} the time the audit judges tombstones' ages by (epoch ms).
     */
    Compaction(CompactionPolicy source, CompactionPolicy target, LatestKeys inSource, LatestKeys inTarget,
            long progress, long now) {
        this.source = source;
        this.target = target;
        this.inSource = inSource;
        this.inTarget = inTarget;
        this.progress = progress;
        this.now = now;
    }

    /** Whether {@code sourceRecord}, which has no copy, was compacted away in the target. */
    boolean awayInTarget(ConsumerRecord<byte[], byte[]> sourceRecord) {
        if (!target.compacted() || sourceRecord.key() == null) {
            return false;
        }
        Optional<Latest> copied = inTarget.of(sourceRecord.key());
        if (copied.isPresent()) {
            return copied.get().offset() > sourceRecord.offset();
        }
        // the tombstone must have been copied (below the progress) for the target's cleaner to have acted on it
        Optional<Latest> last = inSource.of(sourceRecord.key());
        return last.isPresent() && last.get().offset() < progress
                && expiredTombstone(last.get(), sourceRecord.offset(), target);
    }

    /** Whether the copy of {@code sourceOffset}, which the source no longer holds, was compacted away in the source. */
    boolean awayInSource(ConsumerRecord<byte[], byte[]> copy, long sourceOffset) {
        if (!source.compacted() || copy.key() == null) {
            return false;
        }
        Optional<Latest> held = inSource.of(copy.key());
        if (held.isPresent()) {
            return held.get().offset() > sourceOffset;
        }
        Optional<Latest> copied = inTarget.of(copy.key());
        return copied.isPresent() && expiredTombstone(copied.get(), sourceOffset, source);
    }

    /**
     * Whether {@code copy}, a value whose source record is gone, is of a key the compacted source holds nothing of
     * any more: the key was deleted there and its tombstone removed before the mirror read it, so the target still
     * holds a value the source deleted.
     */
    boolean deletedBeforeCopied(ConsumerRecord<byte[], byte[]> copy) {
        return source.compacted() && copy.key() != null && copy.value() != null && inSource.of(copy.key()).isEmpty();
    }

    private boolean expiredTombstone(Latest last, long offset, CompactionPolicy dropping) {
        return last.tombstone() && last.offset() >= offset
                && last.timestamp() <= now - dropping.deleteRetentionMs();
    }
}
