package io.sluice.core.internal.consumer;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Which partitions are fetched. A partition can be held for several reasons at once ({@link PauseReason}) and is
 * fetched again only when none is left; the consumer is told only on those edges. Operators' requests arrive from any
 * thread and are applied here on the consumer thread, as is the read-rate limit.
 *
 * <p>Threading: the consumer thread, except {@link #request}, which any thread may call.
 */
final class FetchPauses {

    /** Pauses that no completion lifts; the loop need not poll faster for them. */
    private static final EnumSet<PauseReason> LASTING = EnumSet.of(PauseReason.OPERATOR, PauseReason.END,
            PauseReason.GAP);

    private final Consumer<?, ?> consumer;
    private final AssignedPartitions partitions;
    /** Null without a read-rate limit. */
    private final ReadRateLimit readRate;
    private final Set<TopicPartition> operatorPaused = ConcurrentHashMap.newKeySet();
    private volatile boolean operatorPausesChanged;

    FetchPauses(Consumer<?, ?> consumer, AssignedPartitions partitions, ReadRateLimit readRate) {
        this.consumer = consumer;
        this.partitions = partitions;
        this.readRate = readRate;
    }

    /** An operator's pause ({@code paused}) or resume of a partition; applied at the next loop. Any thread. */
    void request(TopicPartition partition, boolean paused) {
        if (paused) {
            operatorPaused.add(partition);
        } else {
            operatorPaused.remove(partition);
        }
        operatorPausesChanged = true;
    }

    boolean operatorPaused(TopicPartition partition) {
        return operatorPaused.contains(partition);
    }

    void pause(PartitionState p, PauseReason reason) {
        if (p.pause(reason)) {
            consumer.pause(List.of(p.partition));
        }
    }

    /** @return whether the partition fetches again */
    boolean unpause(PartitionState p, PauseReason reason) {
        if (p.unpause(reason)) {
            consumer.resume(List.of(p.partition));
            return true;
        }
        return false;
    }

    /** Applies the operators' requests made since the last loop. */
    void applyOperatorRequests() {
        if (!operatorPausesChanged) {
            return;
        }
        operatorPausesChanged = false;
        for (PartitionState p : partitions.all()) {
            if (operatorPaused.contains(p.partition)) {
                pause(p, PauseReason.OPERATOR);
            } else if (p.pauses.contains(PauseReason.OPERATOR)) {
                unpause(p, PauseReason.OPERATOR);
            }
        }
    }

    /** Pauses every partition while the run is ahead of the read-rate limit, and resumes them after. */
    void limitReadRate() {
        if (readRate == null) {
            return;
        }
        boolean inDebt = readRate.inDebt(System.nanoTime());
        for (PartitionState p : partitions.all()) {
            if (inDebt) {
                pause(p, PauseReason.RATE);
            } else if (p.pauses.contains(PauseReason.RATE)) {
                unpause(p, PauseReason.RATE);
            }
        }
    }

    /** Charges a poll's records to the read-rate limit, if there is one. */
    void fetched(org.apache.kafka.clients.consumer.ConsumerRecords<byte[], byte[]> records) {
        if (readRate != null) {
            readRate.fetched(records, System.nanoTime());
        }
    }

    /** Whether some partition waits for something that completions lift, so the loop should poll briefly. */
    boolean anyWaitingOnCompletions() {
        for (PartitionState p : partitions.all()) {
            if (!LASTING.containsAll(p.pauses)) {
                return true;
            }
        }
        return false;
    }

    /** Pauses every assigned partition at once (the drain on close); their reasons stay as they were. */
    void pauseAll() {
        consumer.pause(consumer.assignment());
    }
}
