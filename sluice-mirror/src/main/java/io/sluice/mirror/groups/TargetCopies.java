package io.sluice.mirror.groups;

import io.sluice.core.ClusterConnection;
import io.sluice.mirror.copy.Provenance;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.InvalidOffsetException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The copies one mirror made into the target cluster's partitions, as a read_committed consumer sees them (what a
 * consumer failing over would read). A copy is a record whose last provenance hop names the source cluster; other
 * records (copies from other clusters, records the target's own producers wrote) are passed over like the
 * transaction markers and aborted records the consumer never returns.
 *
 * <p>Threading: one thread at a time (it owns a consumer).
 */
final class TargetCopies implements AutoCloseable {

    /** A copy: where it is in the target partition, and the source offset it was copied from. */
    record Copy(long targetOffset, long sourceOffset) {
    }

    private static final Duration POLL = Duration.ofMillis(200);

    private final KafkaConsumer<byte[], byte[]> reader;
    private final String sourceClusterId;
    private final Duration timeout;
    /** Records the reads returned, copies or not: what the searches cost. */
    private long recordsRead;

    TargetCopies(Map<String, ?> targetProperties, String sourceClusterId, Duration timeout) {
        Map<String, Object> props = ClusterConnection.of(targetProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // a seek below the partition's start (retention or a deletion moved it since it was read) must not reset to
        // the end, as the default does: the walk would find no copy, and a group would be translated past every copy
        // between, records a consumer failing over then skipped
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        // it seeks about: a fetch left waiting at the end for more records would hold up the fetch after each seek
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5);
        // a probe of the search needs one record: fetch one batch (a broker returns a first batch whole however
        // small this is), not a megabyte
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 64 * 1024);
        this.reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.sourceClusterId = sourceClusterId;
        this.timeout = timeout;
    }

    /** The last stable offset: a read_committed reader reads nothing at or past it yet. */
    long stableEnd(TopicPartition target) {
        return reader.endOffsets(List.of(target), timeout).get(target);
    }

    /** The first offset the target partition still holds. */
    long start(TopicPartition target) {
        return reader.beginningOffsets(List.of(target), timeout).get(target);
    }

    /**
     * Reads the copies in [{@code from}, {@code until}) in offset order and returns the first one {@code stopAt}
     * accepts; none when it reached {@code until}.
     */
    Optional<Copy> walk(TopicPartition target, long from, long until, Predicate<Copy> stopAt) {
        reader.assign(List.of(target));
        reader.seek(target, from);
        long deadline = System.nanoTime() + timeout.toNanos();
        long position = from;
        while (position < until) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the target cluster did not return the records of " + target
                        + " from offset " + position + " on within " + timeout.toSeconds() + " s");
            }
            try {
                for (ConsumerRecord<byte[], byte[]> r : reader.poll(POLL).records(target)) {
                    recordsRead++;
                    if (r.offset() >= until) {
                        return Optional.empty();
                    }
                    Optional<Copy> copy = copyOf(r);
                    if (copy.isPresent() && stopAt.test(copy.get())) {
                        return copy;
                    }
                }
                // asked after each poll, which waits for records at the end: the position moves past markers and
                // aborted records even when a poll returns nothing
                position = reader.position(target, timeout);
            } catch (InvalidOffsetException e) {
                // the partition's start passed the position: what lay between is gone from the target, and the
                // copies in [from, until) are those from its start on
                long start = start(target);
                if (start <= position) {
                    throw new IllegalStateException("the target cluster said offset " + position + " of " + target
                            + " is out of range, yet its log starts at " + start, e);
                }
                reader.seek(target, start);
                position = start;
            }
        }
        return Optional.empty();
    }

    /** How many copies lie in [{@code from}, {@code until}). */
    long count(TopicPartition target, long from, long until) {
        long[] count = {0};
        walk(target, from, until, copy -> {
            count[0]++;
            return false;
        });
        return count[0];
    }

    /** How many records the reads returned so far, copies or not. */
    long recordsRead() {
        return recordsRead;
    }

    private Optional<Copy> copyOf(ConsumerRecord<byte[], byte[]> r) {
        try {
            return Provenance.lastHop(r.headers()).filter(hop -> hop.clusterId().equals(sourceClusterId))
                    .map(hop -> new Copy(r.offset(), hop.offset()));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a header of that name no mirror wrote: not a copy
        }
    }

    @Override
    public void close() {
        reader.close(Duration.ofSeconds(5));
    }
}
