package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import io.sluice.core.RecordsLostException.Kind;
import io.sluice.core.RecordsLostException.Loss;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;

/**
 * The partitions this member stopped reading because records they were to process are gone
 * ({@link OutOfRangePolicy#STOP_PARTITION}), each with the loss in words. A partition stays stopped while it is
 * assigned here: revoked or lost, it leaves the stopped ones, and its next owner finds the gap again from the same
 * commit; the loss found here stays this run's all the same (a person read it in this instance's log). The engine that
 * ends with losses found ends failed, the losses being the reason, after it committed what came before them and what
 * the other partitions did.
 *
 * <p>Threading: changed on the consumer thread; read from any thread.
 */
final class Gaps {

    private static final Comparator<TopicPartition> ORDER = Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition);

    /** The partitions stopped here now, with the loss in words. */
    private final Map<TopicPartition, String> stopped = new ConcurrentHashMap<>();
    /** Every loss this run found, by partition, the latest of each: the run's failure. */
    private final Map<TopicPartition, Found> found = new ConcurrentHashMap<>();

    private record Found(Loss loss, String words) {
    }

    /** Stops the partition for {@code loss}, saying so in the log once while it stays stopped here. */
    void stop(Loss loss, String words) {
        found.put(loss.partition(), new Found(loss, words));
        if (stopped.putIfAbsent(loss.partition(), words) == null) {
            LOG.error("{}. {} is read no further here: its progress goes no further than offset {}; the other "
                    + "partitions go on", words, loss.partition(), loss.at());
        }
    }

    boolean isStopped(TopicPartition partition) {
        return stopped.containsKey(partition);
    }

    /** The partitions left this member: they are no longer stopped here (their next owner stops them). */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(stopped::remove);
    }

    /** The partitions stopped here now, with their losses in words, by topic and partition. */
    Map<TopicPartition, String> now() {
        Map<TopicPartition, String> sorted = new LinkedHashMap<>();
        stopped.entrySet().stream().sorted(Map.Entry.comparingByKey(ORDER))
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The engine's failure when this run found losses, naming every one; empty when it found none. */
    Optional<RecordsLostException> loss() {
        List<Found> all = found.entrySet().stream().sorted(Map.Entry.comparingByKey(ORDER)).map(Map.Entry::getValue)
                .toList();
        if (all.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RecordsLostException("records lost or log reset: "
                + String.join("; ", all.stream().map(Found::words).toList()),
                "The other partitions went on. " + (all.stream().anyMatch(f -> f.loss().kind() == Kind.PAST_END)
                        ? "Reset the group's offsets of the partitions whose log was reset to where it should be read "
                                + "from (kafka-consumer-groups --reset-offsets) and start again."
                        : "Set the out-of-range policy to EARLIEST or LATEST to continue anyway."),
                all.stream().map(Found::loss).toList()));
    }
}
