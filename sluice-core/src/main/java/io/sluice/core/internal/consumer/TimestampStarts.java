package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.TimestampStart;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * Where assigned partitions start when the engine has a start timestamp: at the first offset whose record is at or
 * after it (Kafka's time index), or at the log end when no record is that recent. Which partitions move is the
 * settings' {@link TimestampStart}; with {@code ALWAYS}, a commit already past the timestamp's offset stands.
 *
 * <p>Threading: the consumer thread (inside the rebalance listener).
 */
final class TimestampStarts {

    private TimestampStarts() {
    }

    /** The partitions of {@code assigned} that start by time, and their offsets; empty without a start timestamp. */
    static Map<TopicPartition, Long> resolve(Consumer<?, ?> consumer, StartSettings config,
            Collection<TopicPartition> assigned, Map<TopicPartition, OffsetAndMetadata> committed) {
        if (config.startTimestamp() == null) {
            return Map.of();
        }
        long time = config.startTimestamp().toEpochMilli();
        List<TopicPartition> moving = assigned.stream()
                .filter(tp -> committed.get(tp) == null || config.timestampStart() == TimestampStart.ALWAYS)
                .collect(Collectors.toList());
        if (moving.isEmpty()) {
            return Map.of();
        }
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(
                moving.stream().collect(Collectors.toMap(tp -> tp, tp -> time)), config.timeout());
        List<TopicPartition> noneThatRecent = moving.stream().filter(tp -> found.get(tp) == null)
                .collect(Collectors.toList());
        Map<TopicPartition, Long> ends = noneThatRecent.isEmpty() ? Map.of()
                : consumer.endOffsets(noneThatRecent, config.timeout());
        Map<TopicPartition, Long> starts = new HashMap<>();
        for (TopicPartition tp : moving) {
            long offset = found.get(tp) != null ? found.get(tp).offset() : ends.get(tp);
            OffsetAndMetadata commit = committed.get(tp);
            if (commit != null && commit.offset() >= offset) {
                continue; // done past the timestamp already
            }
            if (commit != null) {
                LOG.warn("{}: skipping offsets {} to {} ({} records at most), which are before the start timestamp {};"
                        + " the group had committed {}", tp, commit.offset(), offset - 1, offset - commit.offset(),
                        config.startTimestamp(), commit.offset());
            }
            starts.put(tp, offset);
        }
        return starts;
    }
}
