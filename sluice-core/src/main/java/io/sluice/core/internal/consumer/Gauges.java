package io.sluice.core.internal.consumer;

import io.sluice.core.PartitionStats;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.metrics.EngineMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The engine's gauges as of the consumer thread's last loop: bytes held, records pending and running, partitions
 * paused and stuck (watermark still for the stuck threshold with records pending), and once a second (or when the
 * assignment changes) the per-partition view, whose lag of a paused partition follows its end as the cluster gives
 * it ({@link PausedEnds}). Computed on the consumer thread, which owns what they measure, and published in volatile
 * fields for any reader.
 *
 * <p>Threading: {@link #publish} on the consumer thread; the getters from any thread.
 */
final class Gauges {

    private final Consumer<?, ?> consumer;
    private final AssignedPartitions partitions;
    private final MemoryBudget budget;
    private final CommitPolicy commits;
    private final EngineMetrics metrics;
    private final long stuckNanos;
    private final PausedEnds pausedEnds;
    private volatile long queuedBytes;
    private volatile long queuedRecords;
    private volatile int pausedPartitions;
    private volatile int stuckPartitions;
    private volatile long inFlightRecords;
    private volatile List<PartitionStats> partitionStats = List.of();
    private volatile int subscribedPartitions = -1;
    private long nextPartitionStats;

    Gauges(Consumer<?, ?> consumer, AssignedPartitions partitions, MemoryBudget budget, CommitPolicy commits,
            EngineMetrics metrics, Duration stuckThreshold) {
        this(consumer, partitions, budget, commits, metrics, stuckThreshold, new PausedEnds(null,
                IsolationLevel.READ_UNCOMMITTED, PausedEnds.EVERY));
    }

    /** @param pausedEnds the ends of paused partitions, which the consumer's lag no longer follows */
    Gauges(Consumer<?, ?> consumer, AssignedPartitions partitions, MemoryBudget budget, CommitPolicy commits,
            EngineMetrics metrics, Duration stuckThreshold, PausedEnds pausedEnds) {
        this.pausedEnds = pausedEnds;
        this.consumer = consumer;
        this.partitions = partitions;
        this.budget = budget;
        this.commits = commits;
        this.metrics = metrics;
        this.stuckNanos = stuckThreshold.toNanos();
    }

    void publish() {
        long now = System.nanoTime();
        long held = budget.used();
        long running = 0;
        long pending = 0;
        int paused = 0;
        int stuck = 0;
        for (PartitionState p : partitions.all()) {
            held += commits.heldBytes(p);
            running += p.running.get();
            pending += p.ledger.pendingCount();
            if (p.ledger.watermark() != p.watermarkSeen || p.ledger.pendingCount() == 0) {
                p.watermarkSeen = p.ledger.watermark();
                p.watermarkSinceNanos = now;
            } else if (now - p.watermarkSinceNanos > stuckNanos) {
                stuck++;
            }
            if (!p.pauses.isEmpty()) {
                paused++;
            }
        }
        queuedBytes = held;
        queuedRecords = pending;
        inFlightRecords = running;
        pausedPartitions = paused;
        stuckPartitions = stuck;
        if (partitions.takeChanged() || now - nextPartitionStats >= 0) {
            nextPartitionStats = now + 1_000_000_000L;
            Set<TopicPartition> pausedNow = new HashSet<>();
            for (PartitionState p : partitions.all()) {
                // a bounded run's partition at its end is not behind: what came after is not the run's
                // (one stopped at a gap is: its topic may have grown, or been created again, since)
                if (!p.pauses.isEmpty() && (!p.pauses.contains(PauseReason.END) || p.pauses.contains(PauseReason.GAP))) {
                    pausedNow.add(p.partition);
                }
            }
            pausedEnds.refresh(pausedNow, now);
            List<PartitionStats> stats = new ArrayList<>(partitions.size());
            for (PartitionState p : partitions.all()) {
                stats.add(stats(p, now));
            }
            partitionStats = List.copyOf(stats);
            metrics.partitions(partitionStats);
            subscribedPartitions = countSubscribed();
        }
    }

    /**
     * The partitions of the subscribed topics as the consumer's metadata has them (no request: a subscribed topic's
     * are there once the group assigned it), or -1 when that is not known: partitions assigned rather than subscribed
     * to, a topic not in the metadata yet.
     */
    private int countSubscribed() {
        Set<String> topics = consumer.subscription();
        if (topics.isEmpty()) {
            return -1;
        }
        int count = 0;
        for (String topic : topics) {
            List<PartitionInfo> topicPartitions;
            try {
                topicPartitions = consumer.partitionsFor(topic, Duration.ZERO);
            } catch (KafkaException e) {
                return -1; // not in the metadata, and no time to ask: unknown until the next second
            }
            if (topicPartitions == null || topicPartitions.isEmpty()) {
                return -1;
            }
            count += topicPartitions.size();
        }
        return count;
    }

    /**
     * Publishes the per-partition view now, whatever the time since the last: after the final commit, so that a run's
     * stop summary reads the lag that commit left, not the one of up to a second before it.
     */
    void publishNow() {
        nextPartitionStats = System.nanoTime();
        publish();
    }

    private PartitionStats stats(PartitionState p, long now) {
        long watermark = p.ledger.watermark();
        OptionalLong behindPosition = consumer.currentLag(p.partition);
        long lag = behindPosition.isPresent() ? behindPosition.getAsLong() + (p.ledger.end() - watermark) : -1;
        long durableFrom = p.lastCommitted != null ? p.lastCommitted.offset() : p.alreadyComplete.base();
        long durableLag = behindPosition.isPresent()
                ? Math.max(0, behindPosition.getAsLong() + p.ledger.end() - durableFrom) : -1;
        boolean gap = p.pauses.contains(PauseReason.GAP);
        OptionalLong end = p.pauses.isEmpty() || p.pauses.contains(PauseReason.END) && !gap ? OptionalLong.empty()
                : pausedEnds.endOf(p.partition);
        if (end.isPresent()) { // paused: the consumer's lag stopped at the pause, the topic did not
            lag = Math.max(lag, end.getAsLong() - watermark);
            durableLag = Math.max(durableLag, end.getAsLong() - durableFrom);
            if (gap) {
                // a topic created again may end below the old topic's commit: nothing of it is read, not "unknown",
                // which would hide the other partitions' lag in the run's total
                lag = Math.max(0, lag);
                durableLag = Math.max(0, durableLag);
            }
        }
        long stuckMillis = p.ledger.pendingCount() > 0 && p.ledger.watermark() == p.watermarkSeen
                ? (now - p.watermarkSinceNanos) / 1_000_000 : 0;
        return new PartitionStats(p.partition, p.lastCommitted == null ? -1 : p.lastCommitted.offset(), watermark,
                p.ledger.end() - watermark, lag, durableLag, stuckMillis, !p.pauses.isEmpty());
    }

    long queuedBytes() {
        return queuedBytes;
    }

    long queuedRecords() {
        return queuedRecords;
    }

    int pausedPartitions() {
        return pausedPartitions;
    }

    int stuckPartitions() {
        return stuckPartitions;
    }

    long inFlightRecords() {
        return inFlightRecords;
    }

    List<PartitionStats> partitionStats() {
        return partitionStats;
    }

    int subscribedPartitions() {
        return subscribedPartitions;
    }
}
