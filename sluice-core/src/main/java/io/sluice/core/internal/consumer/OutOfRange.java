package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import io.sluice.core.RecordsLostException.Kind;
import io.sluice.core.RecordsLostException.Loss;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

/**
 * A position the log no longer has: records deleted (retention, compaction) before they were processed, or a log
 * that restarted below the position (the topic was recreated or truncated). By default a loud failure naming the
 * lost range; with STOP_PARTITION, that partition stops ({@link Gaps}) and the others go on; with EARLIEST or LATEST,
 * logged and continued from there.
 *
 * <p>Threading: the consumer thread.
 */
final class OutOfRange {

    private final Consumer<?, ?> consumer;
    private final AssignedPartitions partitions;
    private final OutOfRangePolicy policy;
    private final Duration timeout;
    private final EngineFailure failure;
    private final FetchPauses pauses;
    private final Gaps gaps;

    OutOfRange(Consumer<?, ?> consumer, AssignedPartitions partitions, OutOfRangePolicy policy, Duration timeout,
            EngineFailure failure, FetchPauses pauses, Gaps gaps) {
        this.consumer = consumer;
        this.partitions = partitions;
        this.policy = policy;
        this.timeout = timeout;
        this.failure = failure;
        this.pauses = pauses;
        this.gaps = gaps;
    }

    void handle(OffsetOutOfRangeException e) {
        Map<TopicPartition, Long> fetchOffsets = e.offsetOutOfRangePartitions();
        Map<TopicPartition, Long> start = consumer.beginningOffsets(fetchOffsets.keySet(), timeout);
        Map<TopicPartition, Long> end = consumer.endOffsets(fetchOffsets.keySet(), timeout);
        Map<TopicPartition, String> problems = new LinkedHashMap<>();
        Map<TopicPartition, Loss> losses = new LinkedHashMap<>();
        fetchOffsets.forEach((tp, offset) -> {
            long first = start.get(tp);
            long last = end.get(tp);
            boolean deleted = offset < first;
            problems.put(tp, deleted
                    ? tp + ": offsets " + offset + " to " + (first - 1) + " were deleted (by retention, compaction or "
                            + "a delete-records request) before they were processed; the log now starts at " + first
                    : tp + ": the position " + offset + " is beyond the end of the log (" + last + "): the topic was "
                            + "recreated or truncated");
            losses.put(tp, new Loss(tp, deleted ? Kind.DELETED : Kind.PAST_END, offset, first));
        });
        String message = String.join("; ", problems.values());
        if (policy == OutOfRangePolicy.FAIL) {
            // EARLIEST and LATEST go on only forward: past the end of a reset log, they would go back (see below)
            boolean pastEnd = losses.values().stream().anyMatch(l -> l.kind() == Kind.PAST_END);
            failure.fail(new RecordsLostException("records lost or log reset: " + message, pastEnd
                    ? "Reset the group's offsets of these partitions to where the log should be read from "
                            + "(kafka-consumer-groups --reset-offsets --to-earliest, or --to-latest) and start again."
                    : "Set the out-of-range policy to EARLIEST or LATEST to continue anyway.",
                    List.copyOf(losses.values())));
            return;
        }
        if (policy == OutOfRangePolicy.STOP_PARTITION) {
            problems.forEach((tp, lost) -> stop(tp, lost, losses.get(tp)));
            return;
        }
        Map<TopicPartition, Long> to = new LinkedHashMap<>();
        List<String> back = new ArrayList<>();
        for (TopicPartition tp : fetchOffsets.keySet()) {
            long offset = policy == OutOfRangePolicy.EARLIEST ? start.get(tp) : end.get(tp);
            to.put(tp, offset);
            PartitionState p = partitions.get(tp);
            if (p != null && offset < p.ledger.end()) {
                back.add(tp + " would go back from " + p.ledger.end() + " to " + offset);
            }
        }
        if (!back.isEmpty()) {
            // a partition's records are handed out in offset order, each once: going back would hand out offsets
            // already handed out, which the ledger refuses ("offset 0 dispatched after 120", a review); the new log's
            // records are another story, read from the start once the group's offsets say so
            failure.fail(new RecordsLostException("records lost or log reset: " + message + "; the " + policy
                    + " policy continues only forward, and " + String.join(", ", back), "Reset the group's offsets of "
                    + "these partitions to where the log should be read from (kafka-consumer-groups --reset-offsets "
                    + "--to-earliest, or --to-latest) and start again.", List.copyOf(losses.values())));
            return;
        }
        LOG.error("continuing from the {} offset after: {}", policy, message);
        to.forEach((tp, offset) -> {
            consumer.seek(tp, offset);
            PartitionState p = partitions.get(tp);
            if (p != null) {
                p.ledger.positionAt(offset);
            }
        });
    }

    /**
     * The partition is read no further: what came before the gap finishes and is committed, its progress stays where
     * the loss begins, and the others go on.
     */
    private void stop(TopicPartition tp, String lost, Loss loss) {
        long at = loss.at();
        PartitionState p = partitions.get(tp);
        if (p != null) {
            pauses.pause(p, PauseReason.GAP);
        } else {
            consumer.pause(List.of(tp));
        }
        // the same offset without a leader epoch: a position the consumer would otherwise check again and again
        // against a log that lost it (LogTruncationException), though the partition is never fetched
        consumer.seek(tp, at);
        gaps.stop(loss, lost);
    }
}
