package io.sluice.merge.read;

import io.sluice.merge.topics.MergeTopics;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Notices an input topic that got more partitions while the merge runs. A merge pairs partition p of every input with
 * partition p of the output, for the count it started with: the records of a partition added since would stay
 * unmerged while the merge went on (and a bounded run ended "done") without a word. The count is read every
 * {@link #EVERY} from the reader's own metadata (no request: its consumer keeps the topic's), which the consumer
 * refreshes every {@code metadata.max.age.ms} (5 minutes by default), so a growth is found within that.
 *
 * <p>Threading: the input reader's thread.
 */
final class PartitionCountWatch {

    static final Duration EVERY = Duration.ofSeconds(1);
    /**
     * No wait: the consumer answers from the metadata it holds, and a look never holds the reader's loop (a look that
     * waited 5 s for a stopped input cluster held the loop that says the input is silent).
     */
    private static final Duration ASK = Duration.ZERO;

    /** The topic's partitions as the reader's consumer knows them; may throw a timeout. */
    interface Partitions {
        List<PartitionInfo> of(String topic, Duration timeout);
    }

    private final String input;
    private final String topic;
    private final int expected;
    private final Partitions partitions;
    private long lookedAt;

    PartitionCountWatch(String input, String topic, int expected, Partitions partitions, long now) {
        this.input = input;
        this.topic = topic;
        this.expected = expected;
        this.partitions = partitions;
        this.lookedAt = now;
    }

    /** Why the merge cannot go on, once the topic's count differs from the one the merge started with. */
    Optional<String> look(long now) {
        if (now - lookedAt < EVERY.toNanos()) {
            return Optional.empty();
        }
        lookedAt = now;
        List<PartitionInfo> found;
        try {
            found = partitions.of(topic, ASK);
        } catch (TimeoutException | WakeupException e) {
            // the cluster's silence is the reach watch's to say; a wakeup meant for the poll (a partition added or
            // removed) ended the look instead, and the loop runs its command next: the next look asks again
            return Optional.empty();
        }
        if (found == null || found.size() == expected) {
            return Optional.empty();
        }
        return Optional.of(MergeTopics.countChanged(input, topic, found.size(), expected));
    }
}
