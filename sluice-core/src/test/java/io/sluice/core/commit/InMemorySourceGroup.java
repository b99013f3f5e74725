package io.sluice.core.commit;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * A consumer group kept in memory, answering the way a {@code KafkaConsumer} does where the engine relies on it:
 * {@link #committed} lists a partition never committed with a null value; asynchronous commits stay in flight until
 * the test answers them ({@link #answer}), oldest first; a synchronous commit first hears the outcome of every
 * commit in flight ({@link #answerInFlightAtNextSyncWith}), as the consumer runs their callbacks inside
 * {@code commitSync}. Only successful commits change what the group has committed.
 *
 * <p>Threading: the test thread, which plays the engine's consumer thread.
 */
public final class InMemorySourceGroup implements SourceGroup {

    private record InFlight(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
    }

    private final String groupId;
    private final Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
    private final Deque<InFlight> inFlight = new ArrayDeque<>();
    private final List<Map<TopicPartition, OffsetAndMetadata>> sent = new ArrayList<>();
    private Exception inFlightAnswer;
    private RuntimeException syncFailure;

    public InMemorySourceGroup(String groupId) {
        this.groupId = groupId;
    }

    @Override
    public String groupId() {
        return groupId;
    }

    @Override
    public ConsumerGroupMetadata groupMetadata() {
        return new ConsumerGroupMetadata(groupId);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> answer = new HashMap<>();
        partitions.forEach(tp -> answer.put(tp, committed.get(tp)));
        return answer;
    }

    /** What the group has committed now, at once: a partition never committed is absent. */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedAsync(Set<TopicPartition> partitions) {
        Map<TopicPartition, OffsetAndMetadata> answer = new HashMap<>();
        partitions.forEach(tp -> {
            if (committed.containsKey(tp)) {
                answer.put(tp, committed.get(tp));
            }
        });
        return KafkaFuture.completedFuture(answer);
    }

    @Override
    public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
        sent.add(Map.copyOf(offsets));
        inFlight.add(new InFlight(Map.copyOf(offsets), callback));
    }

    @Override
    public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        while (!inFlight.isEmpty()) {
            answer(inFlightAnswer);
        }
        if (offsets.isEmpty()) {
            return; // nothing is sent
        }
        sent.add(Map.copyOf(offsets));
        if (syncFailure != null) {
            throw syncFailure;
        }
        committed.putAll(offsets);
    }

    /** Ends the oldest commit in flight: taken when {@code error} is null, else failed with it. */
    public void answer(Exception error) {
        InFlight commit = inFlight.remove();
        if (error == null) {
            committed.putAll(commit.offsets());
        }
        commit.callback().onComplete(commit.offsets(), error);
    }

    /** How the commits still in flight end when the next synchronous commit waits for them; null: taken. */
    public void answerInFlightAtNextSyncWith(Exception error) {
        inFlightAnswer = error;
    }

    /** Makes every later synchronous commit fail with {@code failure}. */
    public void failSyncCommitsWith(RuntimeException failure) {
        syncFailure = failure;
    }

    /** A partition's commit as an earlier member made it. */
    public void alreadyCommitted(TopicPartition partition, OffsetAndMetadata offset) {
        committed.put(partition, offset);
    }

    /** Every commit sent, in order, whatever became of it. */
    public List<Map<TopicPartition, OffsetAndMetadata>> sent() {
        return List.copyOf(sent);
    }

    /** What the group has committed now. */
    public Map<TopicPartition, OffsetAndMetadata> committedNow() {
        return Map.copyOf(committed);
    }

    public int inFlight() {
        return inFlight.size();
    }
}
