package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import static io.sluice.core.internal.EngineLog.LOG;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.RecordsLostException;
import io.sluice.core.StartPosition;
import io.sluice.core.commit.CommitPoint;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.ledger.CompletionMap;
import io.sluice.core.wire.CommitMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Partitions coming and going. Assigned: the commit point claims them (fencing earlier owners) and says where each
 * resumes, a start timestamp or the start position places the ones never committed, and each gets fresh state.
 * Revoked: no new records start, those running finish (up to the drain timeout), the last progress is committed,
 * then the partition is forgotten. Lost: another member may own it already, so nothing is committed; the commit policy
 * settles what was in flight and the partition is forgotten.
 *
 * <p>Threading: the consumer thread (the consumer calls the listener inside {@code poll}).
 */
final class Assignments implements ConsumerRebalanceListener {

    private final Consumer<?, ?> consumer;
    private final StartSettings settings;
    private final CommitPoint commitPoint;
    private final CommitPolicy commits;
    private final TopicIds topicIds;
    private final AssignedPartitions partitions;
    private final PartitionFactory factory;
    private final Completions completions;
    private final FetchPauses pauses;
    private final MemoryBudget budget;
    private final RunEnd runEnd;
    private final Gaps gaps;
    private final LongAdder revoked = new LongAdder();
    private final LongAdder lost = new LongAdder();
    /** Set by the consumer thread at the first assignment; read by the source's reach from any thread. */
    private volatile boolean everAssigned;

    Assignments(Consumer<?, ?> consumer, StartSettings settings, CommitPoint commitPoint, CommitPolicy commits,
            TopicIds topicIds, AssignedPartitions partitions, PartitionFactory factory, Completions completions,
            FetchPauses pauses, MemoryBudget budget, RunEnd runEnd, Gaps gaps) {
        this.consumer = consumer;
        this.settings = settings;
        this.commitPoint = commitPoint;
        this.commits = commits;
        this.topicIds = topicIds;
        this.partitions = partitions;
        this.factory = factory;
        this.completions = completions;
        this.pauses = pauses;
        this.budget = budget;
        this.runEnd = runEnd;
        this.gaps = gaps;
    }

    /** Whether the group gave this member its first assignment (perhaps empty) yet. Any thread. */
    boolean everAssigned() {
        return everAssigned;
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revokedPartitions) {
        revoked.add(revokedPartitions.size());
        gaps.forget(revokedPartitions);
        List<PartitionState> leaving = stateOf(revokedPartitions);
        if (leaving.isEmpty()) {
            return;
        }
        leaving.forEach(PartitionState::close);
        awaitIdle(leaving);
        try {
            commits.commitFinal(leaving);
        } catch (RuntimeException e) {
            LOG.warn("commit on revoke of {} failed; the new owner replays from the last commit: {}",
                    revokedPartitions, ErrorWords.of(e));
        }
        forget(leaving, false);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lostPartitions) {
        lost.add(lostPartitions.size());
        gaps.forget(lostPartitions);
        // another member may own them already: never commit, just stop
        List<PartitionState> gone = stateOf(lostPartitions);
        gone.forEach(PartitionState::close);
        commits.lost(gone);
        forget(gone, true);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
        everAssigned = true;
        if (assigned.isEmpty()) {
            return;
        }
        Map<TopicPartition, OffsetAndMetadata> committed = new java.util.HashMap<>(
                commitPoint.claim(Set.copyOf(assigned), settings.timeout()));
        Set<String> topics = partitions.all().stream().map(p -> p.partition.topic())
                .collect(Collectors.toCollection(java.util.HashSet::new));
        assigned.forEach(tp -> topics.add(tp.topic()));
        topicIds.retain(topics);
        topicIds.refresh(assigned);
        Map<TopicPartition, Uuid> stopped = forgetCommitsOfRecreatedTopics(committed);
        Map<TopicPartition, Long> byTime = new java.util.HashMap<>(TimestampStarts.resolve(consumer, settings, assigned,
                committed));
        byTime.keySet().removeAll(stopped.keySet()); // a start timestamp must not move the commit a stopped one keeps
        List<TopicPartition> fresh = assigned.stream()
                .filter(tp -> committed.get(tp) == null && !byTime.containsKey(tp)).collect(Collectors.toList());
        if (!fresh.isEmpty()) {
            if (settings.startPosition() == StartPosition.EARLIEST && settings.outOfRange() != OutOfRangePolicy.LATEST
                    || settings.outOfRange() == OutOfRangePolicy.EARLIEST) {
                consumer.seekToBeginning(fresh);
            } else {
                consumer.seekToEnd(fresh);
            }
        }
        // every partition is placed before the first position() below: that call sets up every assigned partition
        // without a position at once, and with no reset policy one whose progress lives in the commit point (the
        // target's transactions: the source group has no offsets) would fail it if it were not placed yet
        for (TopicPartition tp : assigned) {
            OffsetAndMetadata oam = committed.get(tp);
            Long timeStart = byTime.get(tp);
            if (timeStart != null) {
                consumer.seek(tp, timeStart);
            } else if (stopped.containsKey(tp)) {
                // never fetched; an offset without its leader epoch, which the consumer would check against the new
                // topic's log and find truncated
                consumer.seek(tp, oam.offset());
            } else if (oam != null) {
                // position known now, so reading it never blocks the loop
                consumer.seek(tp, oam);
            }
        }
        for (TopicPartition tp : assigned) {
            OffsetAndMetadata oam = committed.get(tp);
            Long timeStart = byTime.get(tp);
            long start = timeStart != null ? timeStart
                    : oam != null ? oam.offset() : consumer.position(tp, settings.timeout());
            CompletionMap done = timeStart == null && oam != null
                    ? CompletionMap.fromCommit(oam.offset(), oam.metadata()) : CompletionMap.empty(start);
            PartitionState p = factory.create(tp, start, done);
            // a stopped partition keeps the identity its commit speaks of, so that a commit of it (a recommit lest
            // it expire) says the same as the one there, never that the new topic is copied up to there
            p.topicId = stopped.getOrDefault(tp, topicIds.idOf(tp.topic()));
            partitions.add(p);
            commits.assigned(p, oam);
            if (stopped.containsKey(tp)) {
                pauses.pause(p, PauseReason.GAP);
            }
            if (pauses.operatorPaused(tp)) {
                pauses.pause(p, PauseReason.OPERATOR);
            }
            if (start >= runEnd.endOf(tp)) {
                pauses.pause(p, PauseReason.END);
            }
        }
        budget.partitionsAssigned(partitions.size());
    }

    /** Partitions revoked from this member since start (cooperative rebalances move only these). */
    long revoked() {
        return revoked.sum();
    }

    /** Partitions lost without a chance to commit (session expired). */
    long lost() {
        return lost.sum();
    }

    private List<PartitionState> stateOf(Collection<TopicPartition> tps) {
        return tps.stream().map(partitions::get).filter(Objects::nonNull).collect(Collectors.toList());
    }

    private void awaitIdle(List<PartitionState> states) {
        List<PartitionState> stuck = completions.awaitIdle(states, settings.timeout().toNanos());
        if (!stuck.isEmpty()) {
            LOG.warn("records still running after {} in {}; they stay uncommitted and will be processed again",
                    settings.timeout(), stuck);
        }
    }

    /**
     * A commit made for an earlier topic of the same name must not position the new one: by default that is a
     * loud failure; with STOP_PARTITION the partition stays where the commit is, stopped ({@link Gaps}), and is
     * returned with the topic ID of its commit; with EARLIEST or LATEST, the commit is ignored and the partition starts
     * there.
     */
    private Map<TopicPartition, Uuid> forgetCommitsOfRecreatedTopics(Map<TopicPartition, OffsetAndMetadata> committed) {
        Map<TopicPartition, Uuid> was = new java.util.LinkedHashMap<>();
        Map<TopicPartition, String> recreated = new java.util.LinkedHashMap<>();
        committed.forEach((tp, oam) -> {
            if (oam == null) {
                return;
            }
            var commitOf = CommitMetadata.topicId(oam.metadata());
            var now = topicIds.idOf(tp.topic());
            if (commitOf.isPresent() && !commitOf.get().equals(now)) {
                was.put(tp, commitOf.get());
                recreated.put(tp, tp + " (committed at offset " + oam.offset() + " for topic ID " + commitOf.get()
                        + "; the topic's ID is now " + now + ")");
            }
        });
        if (recreated.isEmpty()) {
            return Map.of();
        }
        if (settings.outOfRange() == OutOfRangePolicy.STOP_PARTITION) {
            recreated.forEach((tp, words) -> {
                String lost = "topic deleted and created again since this group committed: " + words + "; its "
                        + "records are not the ones the commit speaks of";
                gaps.stop(new RecordsLostException.Loss(tp, RecordsLostException.Kind.RECREATED,
                        committed.get(tp).offset(), -1), lost);
            });
            return was;
        }
        String message = "topic deleted and created again since this group committed: " + String.join(", ",
                recreated.values());
        if (settings.outOfRange() == OutOfRangePolicy.FAIL) {
            throw new RecordsLostException(message + "; its records are not the ones the commit speaks of", "Set "
                    + "the out-of-range policy to EARLIEST or LATEST to start the new topic there.");
        }
        committed.keySet().removeAll(recreated.keySet());
        LOG.error("{}; starting from the {} offset", message, settings.outOfRange());
        return Map.of();
    }

    private void forget(List<PartitionState> states, boolean wereLost) {
        for (PartitionState p : states) {
            partitions.remove(p);
            budget.release(p.bufferedBytes);
        }
        commitPoint.release(states.stream().map(p -> p.partition).collect(Collectors.toList()), wereLost);
        budget.partitionsAssigned(partitions.size());
    }
}
