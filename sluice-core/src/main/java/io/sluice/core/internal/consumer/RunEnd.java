package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.commit.CommitPoint;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * The end of a bounded run: the end offsets of every partition of the topics, read when the engine starts (with the
 * consumer's isolation level, so open transactions do not hold the run; for a topic pattern, of the topics that match
 * then: a partition created later, of a new topic or not, has the end 0 and is not read). Records at or past a partition's end are
 * not processed. The run is over when every partition is done up to its end: the ones assigned here by their
 * watermark, the others by their committed progress, since other instances of the group commit them: the run asks
 * the {@link CommitPoint} ({@link CommitPoint#committedProgress}), which reads wherever it keeps the progress (the
 * source group's offsets for an archive, the target cluster's progress group for a mirror). The
 * engine then drains and commits as on close, so everything up to the ends is committed when it stops. A partition
 * stopped at a gap here ({@link Gaps}) is done once what was read before the gap is, and then the run ends without
 * waiting for the other instances' partitions: it failed, and two instances that each stopped a partition would wait
 * for ever for each other's.
 *
 * <p>Threading: the consumer thread. The progress is asked for asynchronously, so the loop never waits.
 */
final class RunEnd {

    private static final long PROGRESS_QUERY_INTERVAL_NANOS = 1_000_000_000L;

    private final Map<TopicPartition, Long> ends;
    private final CommitPoint commitPoint;
    private KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> progressQuery;
    private long nextProgressQuery = System.nanoTime();

    private RunEnd(Map<TopicPartition, Long> ends, CommitPoint commitPoint) {
        this.ends = ends == null ? null : Map.copyOf(ends);
        this.commitPoint = commitPoint;
    }

    /** A run that never ends by itself: no partition has an end. */
    static RunEnd unbounded() {
        return new RunEnd(null, null);
    }

    /** @param commitPoint asked for the committed progress of the partitions other instances own */
    static RunEnd capture(Consumer<?, ?> consumer, Subscription subscription, CommitPoint commitPoint,
            java.time.Duration timeout, Admin admin) {
        List<String> topics = subscription.topicsNow(admin, timeout);
        if (topics.isEmpty()) {
            throw new IllegalStateException("no topic matches '" + subscription.pattern() + "'; a run until the end "
                    + "reads the topics that exist when it starts");
        }
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist or this client may not describe "
                        + "it; a run until the end needs the partitions of every topic when it starts");
            }
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        LOG.info("running until the end offsets seen now, over {} {}: {}", ends.size(),
                ends.size() == 1 ? "partition" : "partitions", ends);
        return new RunEnd(ends, commitPoint);
    }

    /** The partition's end: 0 for a partition created after the start, which this run does not read; none when unbounded. */
    long endOf(TopicPartition partition) {
        if (ends == null) {
            return Long.MAX_VALUE;
        }
        return ends.getOrDefault(partition, 0L);
    }

    /**
     * The partitions assigned here that are done up to their end since the last call (each is named once): a sink
     * holding their last records until a roll (an archive's open files, up to their maximum age) would keep the run
     * from ending, since with several instances each waits for the others' partitions to be committed.
     */
    List<PartitionState> doneHere(Collection<PartitionState> assigned) {
        if (ends == null) {
            return List.of();
        }
        List<PartitionState> done = new ArrayList<>();
        for (PartitionState p : assigned) {
            if (!p.relievedAtEnd && p.ledger.watermark() >= endOf(p.partition)) {
                p.relievedAtEnd = true;
                done.add(p);
            }
        }
        return done;
    }

    /** Whether every partition is done up to its end; asks for the progress of the partitions not assigned here. */
    boolean reached(Map<TopicPartition, PartitionState> assigned, long nowNanos) {
        if (ends == null) {
            return false;
        }
        boolean anyStopped = false;
        for (PartitionState p : assigned.values()) {
            // a partition stopped at a gap goes no further once what was read before it is done (the drain does not
            // start what is queued, and those records may be gone from the source already)
            boolean stopped = p.pauses.contains(PauseReason.GAP) && p.ledger.watermark() >= p.ledger.end();
            if (p.ledger.watermark() < endOf(p.partition) && !stopped) {
                progressQuery = null;
                return false;
            }
            anyStopped |= stopped;
        }
        if (anyStopped) {
            // the run lost records, and says so when it ends: it does not wait for the others' partitions, which may
            // be stopped at gaps too, their owners waiting for this one's (they end when theirs are done, and
            // a partition stopped here that moves to them stops there)
            return true;
        }
        if (assigned.keySet().containsAll(ends.keySet())) {
            return true;
        }
        if (progressQuery == null) {
            if (nowNanos - nextProgressQuery >= 0) {
                nextProgressQuery = nowNanos + PROGRESS_QUERY_INTERVAL_NANOS;
                Set<TopicPartition> elsewhere = new HashSet<>(ends.keySet());
                elsewhere.removeAll(assigned.keySet());
                progressQuery = commitPoint.committedProgress(elsewhere);
            }
            return false;
        }
        if (!progressQuery.isDone()) {
            return false;
        }
        Map<TopicPartition, OffsetAndMetadata> committed;
        try {
            committed = progressQuery.getNow(Map.of());
        } catch (ExecutionException e) {
            LOG.warn("could not read the committed progress to see whether the run is over; asking again: {}",
                    e.getCause().toString());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            progressQuery = null;
        }
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(end.getKey());
            if (!assigned.containsKey(end.getKey()) && (c == null ? 0 : c.offset()) < end.getValue()) {
                return false;
            }
        }
        return true;
    }
}
