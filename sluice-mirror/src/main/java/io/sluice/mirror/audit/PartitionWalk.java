package io.sluice.mirror.audit;

import java.time.Duration;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's records as a read_committed reader sees them, from an offset up to (not including) an end offset,
 * one fetched batch at a time: a partition of any size is walked in the memory of one batch. The end is reached when
 * the consumer's position passes it, which it may do over transaction markers and aborted records that it never
 * returns.
 *
 * <p>Threading: the thread that owns the consumer ({@link CommittedLog}); one walk of a consumer at a time.
 */
final class PartitionWalk implements Iterator<ConsumerRecord<byte[], byte[]>> {

    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final TopicPartition partition;
    private final long until;
    private final Duration timeout;
    private final String side;
    private Iterator<ConsumerRecord<byte[], byte[]>> batch = Collections.emptyIterator();
    private boolean ended;
    private long lastPosition = -1;
    private long lastProgress = System.nanoTime();

    PartitionWalk(KafkaConsumer<byte[], byte[]> consumer, TopicPartition partition, long until, Duration timeout,
            String side) {
        this.consumer = consumer;
        this.partition = partition;
        this.until = until;
        this.timeout = timeout;
        this.side = side;
    }

    @Override
    public boolean hasNext() {
        while (!batch.hasNext() && !ended) {
            fetch();
        }
        return batch.hasNext();
    }

    @Override
    public ConsumerRecord<byte[], byte[]> next() {
        if (!hasNext()) {
            throw new NoSuchElementException(partition + " read to offset " + until);
        }
        return batch.next();
    }

    private void fetch() {
        try {
            long position = consumer.position(partition, timeout);
            if (position >= until) {
                ended = true;
                return;
            }
            if (position != lastPosition) {
                lastPosition = position;
                lastProgress = System.nanoTime();
            } else if (System.nanoTime() - lastProgress > timeout.toNanos()) {
                throw new MirrorAuditException("reading " + partition + " of the " + side + " made no progress at "
                        + "offset " + position + " for " + timeout.toSeconds() + " s, short of offset " + until
                        + ": is the cluster reachable, and may this client read the topic?");
            }
            List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL).records(partition);
            if (!records.isEmpty() && records.get(records.size() - 1).offset() >= until) {
                records = records.stream().filter(r -> r.offset() < until).toList();
                ended = true;
            }
            batch = records.iterator();
        } catch (OffsetOutOfRangeException e) {
            throw new MirrorAuditException("retention removed records of " + partition + " of the " + side
                    + " while the audit read them: audit again", e);
        } catch (KafkaException e) {
            throw new MirrorAuditException("cannot read " + partition + " of the " + side + " read_committed: "
                    + e.getMessage(), e);
        }
    }
}
