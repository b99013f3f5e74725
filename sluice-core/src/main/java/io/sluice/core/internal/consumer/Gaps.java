package io.sluice.core.internal.consumer;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions this member stopped reading because records they were to process are gone
 * ({@link OutOfRangePolicy#STOP_PARTITION}), each with the loss in words. A partition stays stopped while it is
 * assigned here: revoked or lost, it leaves this list, and its next owner finds the gap again from the same commit.
 * The engine that ends with stopped partitions ends failed, the losses being the reason, after it committed what came
 * before them and what the other partitions did.
 *
 * <p>Threading: changed on the consumer thread; read from any thread.
 */
final class Gaps {

    private final Map<TopicPartition, String> stopped = new ConcurrentHashMap<>();

    /** Stops the partition for {@code lost}; whether it was not stopped already (so the loss is said once). */
    boolean stop(TopicPartition partition, String lost) {
        return stopped.putIfAbsent(partition, lost) == null;
    }

    boolean isStopped(TopicPartition partition) {
        return stopped.containsKey(partition);
    }

    /** The partitions left this member: their next owner says what they lost. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(stopped::remove);
    }

    /** The stopped partitions with their losses in words, by topic and partition. */
    Map<TopicPartition, String> now() {
        Map<TopicPartition, String> sorted = new LinkedHashMap<>();
        stopped.entrySet().stream()
                .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::topic)
                        .thenComparingInt(TopicPartition::partition)))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The engine's failure when it ends with stopped partitions, naming every loss; empty when none is stopped. */
    Optional<RecordsLostException> loss() {
        Map<TopicPartition, String> now = now();
        if (now.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RecordsLostException("records lost or log reset: " + String.join("; ", now.values()),
                "The other partitions went on. Set the out-of-range policy to EARLIEST or LATEST to continue anyway."));
    }
}
