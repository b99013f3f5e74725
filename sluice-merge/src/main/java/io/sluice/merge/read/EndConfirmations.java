package io.sluice.merge.read;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The ends of an input's partitions (read_committed: the last stable offset), asked of the cluster without waiting
 * for the answer, each partition on its own. The reader asked its consumer for the ends of all its partitions at once
 * and waited: one partition whose leader did not answer (a broker cut off from this process alone, or frozen before
 * the controller fenced it) timed that call out for every partition, and held the reader's loop for the timeout each
 * time. The admin client asks each leader for its own partitions, and each partition's answer arrives, or times out,
 * on its own.
 *
 * <p>A partition is asked again only once its last question was answered or given up, so a broker that does not
 * answer has at most one question per partition waiting.
 *
 * <p>Threading: the reader's thread only ({@link #ask}, {@link #answered}, {@link #close}); the admin client's own
 * thread completes the answers, which {@link #answered} only reads once they are done.
 */
final class EndConfirmations implements AutoCloseable {

    /** One question waiting: its answer, and when it was asked (the merge clock's time). */
    private record Question(KafkaFuture<ListOffsetsResult.ListOffsetsResultInfo> answer, long askedAt) {
    }

    private final Admin admin;
    private final Duration timeout;
    private final Map<TopicPartition, Question> waiting = new HashMap<>();

    EndConfirmations(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** Asks the ends of those of {@code partitions} that have no question waiting; {@code now}: the merge clock's. */
    void ask(Collection<TopicPartition> partitions, long now) {
        Map<TopicPartition, OffsetSpec> asking = new HashMap<>();
        for (TopicPartition tp : partitions) {
            if (!waiting.containsKey(tp)) {
                asking.put(tp, OffsetSpec.latest());
            }
        }
        if (asking.isEmpty()) {
            return;
        }
        ListOffsetsResult result = admin.listOffsets(asking,
                new ListOffsetsOptions(IsolationLevel.READ_COMMITTED).timeoutMs((int) timeout.toMillis()));
        for (TopicPartition tp : asking.keySet()) {
            waiting.put(tp, new Question(result.partitionResult(tp), now));
        }
    }

    /**
     * Hands each end answered since the last call to {@code answer} with the time it was asked (the end was true at
     * some moment after that); a question that failed (timed out, no leader) is dropped: no answer, no confirmation.
     */
    void answered(AnswerConsumer answer) {
        for (Iterator<Map.Entry<TopicPartition, Question>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<TopicPartition, Question> e = it.next();
            KafkaFuture<ListOffsetsResult.ListOffsetsResultInfo> future = e.getValue().answer();
            if (!future.isDone()) {
                continue;
            }
            it.remove();
            if (future.isCompletedExceptionally()) {
                continue;
            }
            try {
                answer.accept(e.getKey(), future.get().offset(), e.getValue().askedAt());
            } catch (ExecutionException | InterruptedException impossible) {
                // done and not failed: get() returns at once
            }
        }
    }

    /** Forgets a partition no longer read: an answer for it arriving later is not handed on. */
    void forget(TopicPartition tp) {
        waiting.remove(tp);
    }

    /** What {@link #answered} hands on. */
    interface AnswerConsumer {
        void accept(TopicPartition partition, long end, long askedAt);
    }

    @Override
    public void close() {
        // nothing to wait for: an answer no one will read
        admin.close(Duration.ZERO);
    }
}
