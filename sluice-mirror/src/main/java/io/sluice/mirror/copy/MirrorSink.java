package io.sluice.mirror.copy;

import io.sluice.core.sink.Sink;
import io.sluice.mirror.Mirror;
import io.sluice.core.commit.TargetWait;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.TimestampType;

/**
 * The mirror's sink: copies each record of source partition p to partition p of the target topic, with its key,
 * value, headers and timestamp as they were, plus the {@link Provenance} header. A record whose provenance names the
 * target cluster is not copied back (it came from there). Its checkpoint is the offset after the last record it took:
 * the commit point's commit makes the copies count (a transaction's commit, or the source group's commit after
 * {@link TargetWrites#flush}); its data only says where in the target those copies lie ({@link CopyBounds}), for
 * offset translation.
 *
 * <p>Threading: each partition's calls come from its lane; the {@link Cursors} are shared by the partitions, and
 * {@link #counts}, {@link #held} and {@link #everHeld} may be read from any thread (concurrent sets, copied).
 */
public final class MirrorSink implements Sink {

    /** How often a checkpoint waiting for its last copy looks whether the engine failed meanwhile. */
    private static final long ABANDON_CHECK_MILLIS = 100;

    private final TargetWrites writes;
    /** Whether an uncommitted checkpoint's copies are gone (aborted with the transaction) rather than in the target. */
    private final boolean transactional;
    private final TopicNaming naming;
    private final byte[] fromSource;
    private final byte[] fromTarget;
    private final Cursors cursors = new Cursors();
    /** Copies sent, whether their commit came or not. */
    private final LongAdder sent = new LongAdder();
    /** Copies whose checkpoint's commit succeeded, and their bytes. */
    private final LongAdder copied = new LongAdder();
    private final LongAdder copiedBytes = new LongAdder();
    private final LongAdder cameFromTarget = new LongAdder();
    /** The source partitions open now, and every one opened in this run: the group sync's share of the groups. */
    private final Set<TopicPartition> held = ConcurrentHashMap.newKeySet();
    private final Set<TopicPartition> everHeld = ConcurrentHashMap.newKeySet();
    /** Set by {@link #abandon}: a checkpoint no longer waits for its copies. */
    private volatile boolean abandoned;
    /** Why the copies cannot be written now (the target's silence), once the mirror watches it. */
    private volatile Supplier<Optional<String>> cannotWrite = Optional::empty;

    /**
     * @param transactional whether the writes are in the commit point's transactions (exactly once), so that copies
     *                      whose commit failed are not in the target
     */
    public MirrorSink(TargetWrites writes, boolean transactional, TopicNaming naming, String sourceClusterId,
            String targetClusterId) {
        this.writes = writes;
        this.transactional = transactional;
        this.naming = naming;
        this.fromSource = Provenance.hopPrefix(sourceClusterId);
        // within one cluster every record names it: none came back (a loop there is refused by the naming rules), and
        // an earlier mirror's copies in the cluster were skipped as if they had (a review)
        this.fromTarget = sourceClusterId.equals(targetClusterId) ? null : Provenance.hopPrefix(targetClusterId);
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData) {
        cursors.open(partition, naming.target(partition.topic()), committedOffset, CopyBounds.decode(committedData));
        everHeld.add(partition);
        held.add(partition);
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) {
        Cursors.Cursor cursor = cursors.of(record.topic(), record.partition());
        if (fromTarget != null && Provenance.cameFrom(record.headers(), fromTarget)) {
            cameFromTarget.increment();
        } else {
            cursor.sending = true;
            try {
                cursor.lastCopy = writes.send(cursor.source, copyOf(record, cursor.targetTopic));
                if (cursor.learnsFirstCopy && cursor.firstCopy == null) {
                    cursor.firstCopy = cursor.lastCopy;
                    cursor.firstCopySource = record.offset();
                }
            } finally {
                cursor.sending = false;
            }
            cursor.sentRecords++;
            cursor.sentBytes += Math.max(0, record.serializedKeySize()) + Math.max(0, record.serializedValueSize());
        }
        cursor.next = record.offset() + 1;
    }

    private ProducerRecord<byte[], byte[]> copyOf(ConsumerRecord<byte[], byte[]> record, String targetTopic) {
        // a record without a timestamp (-1: clients other than Java's may write CreateTime -1) cannot be copied with
        // it, the Java producer refuses a negative one: the copy gets the time of the copy. It stopped the mirror at
        // that record at every start ("Invalid timestamp: -1"); the audit counts the timestamp as kept
        Long timestamp = record.timestampType() == TimestampType.NO_TIMESTAMP_TYPE || record.timestamp() < 0 ? null
                : record.timestamp();
        // no headers given: a ProducerRecord copies the headers it is given into a list of its own, so the source's
        // headers and the provenance go straight into that list (handing over a RecordHeaders of our own cost two
        // more arrays and lists per copy, 3% of the mirror's samples)
        ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(targetTopic, record.partition(), timestamp,
                record.key(), record.value(), (Iterable<Header>) null);
        Headers headers = copy.headers();
        for (Header header : record.headers().toArray()) {
            headers.add(header);
        }
        headers.add(new RecordHeader(Provenance.HEADER, Provenance.value(fromSource, record.offset())));
        return copy;
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception {
        Cursors.Cursor cursor = cursors.of(partition);
        cursor.waitingSince = System.nanoTime();
        try {
            writes.flush(partition);
            if (cursor.lastCopy != null) {
                // at least once the flush waited for it; exactly once this waits for its batch, which the
                // transaction's commit right after would wait for anyway
                long lastCopy = landed(partition, cursor.lastCopy).offset();
                Optional<CopyBounds.FirstCopy> first = cursor.firstCopy == null ? Optional.empty()
                        : Optional.of(new CopyBounds.FirstCopy(landed(partition, cursor.firstCopy).offset(),
                                cursor.firstCopySource));
                cursor.bounds = cursor.bounds.after(lastCopy, first);
                cursor.lastCopy = null;
                cursor.firstCopy = null;
                cursor.learnsFirstCopy = false;
            }
        } finally {
            cursor.waitingSince = 0;
        }
        if (cursor.sentRecords > 0) {
            cursor.awaitingCommit.add(new long[] {cursor.next, cursor.sentRecords, cursor.sentBytes});
            sent.add(cursor.sentRecords);
            cursor.sentRecords = 0;
            cursor.sentBytes = 0;
        }
        return new SinkCheckpoint(cursor.next, cursor.bounds.encode());
    }

    /**
     * Where the copy landed, once the target took it; throws when the engine failed meanwhile ({@link #abandon}): a
     * copy whose broker does not answer is otherwise waited for until the producer's delivery timeout.
     */
    private RecordMetadata landed(TopicPartition partition, Future<RecordMetadata> copy) throws Exception {
        while (true) {
            if (abandoned && !copy.isDone()) { // one the target took still counts: at least once, its commit stands
                throw new IllegalStateException("the mirror stopped with copies of " + partition + " not yet taken by "
                        + "the target; a restart copies them again");
            }
            try {
                return copy.get(ABANDON_CHECK_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // not yet: look at the abandon mark again
            }
        }
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) {
        // the commit made the copies count (those of earlier checkpoints too); nothing of the sink's own to publish
        ArrayDeque<long[]> awaiting = cursors.of(partition).awaitingCommit;
        while (!awaiting.isEmpty() && awaiting.peekFirst()[0] <= checkpoint.offset()) {
            long[] counted = awaiting.pollFirst();
            copied.add(counted[1]);
            copiedBytes.add(counted[2]);
        }
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) {
        // exactly once: the aborted transaction took its copies with it, and the engine stops; at least once: the
        // copies stay in the target and the next commit covers them, or a restart copies them again
        if (transactional) {
            cursors.of(partition).awaitingCommit.removeIf(counted -> counted[0] <= checkpoint.offset());
        }
    }

    @Override
    public void close(TopicPartition partition, boolean lost) {
        held.remove(partition);
        cursors.close(partition);
        writes.forget(partition);
    }

    /** The source partitions this instance copies now. Any thread. */
    public Set<TopicPartition> held() {
        return Set.copyOf(held);
    }

    /** Every source partition this instance copied since it started, whether it holds it still or not. Any thread. */
    public Set<TopicPartition> everHeld() {
        return Set.copyOf(everHeld);
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        return 0; // the producer holds the copies, within its own buffer.memory
    }

    /** Where {@link #unableToFinish} learns why the copies cannot be written now: the mirror's watch on the target. */
    public void unableToFinishWhen(Supplier<Optional<String>> why) {
        this.cannotWrite = why;
    }

    /** The target's silence, once it lasted the grace: a drain then stops without waiting for the copies. */
    @Override
    public Optional<String> unableToFinish() {
        return cannotWrite.get();
    }

    @Override
    public void abandon() {
        abandoned = true;
        writes.abandon();
    }

    @Override
    public void close() {
        writes.close();
    }

    /**
     * Whether a lane waits on the target now: in a send (which may wait for the target's metadata), or in a
     * checkpoint's wait for acknowledgements; from any thread.
     */
    public boolean sending() {
        return cursors.anySending();
    }

    /**
     * The target partitions whose checkpoint waits for their copies' acknowledgements now, with since when; from any
     * thread.
     */
    public Map<TopicPartition, TargetWait> waits() {
        Map<TopicPartition, TargetWait> waits = new HashMap<>();
        cursors.waiting().forEach((p, since) -> waits.put(p, new TargetWait(TargetWait.Kind.RECORDS, since)));
        return waits;
    }

    /** What was copied and committed so far, what was sent, and what was not copied back to the cluster it came from. */
    public Mirror.Counts counts() {
        return new Mirror.Counts(copied.sum(), copiedBytes.sum(), cameFromTarget.sum(), sent.sum());
    }
}
