package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code cancel}: stops the moves of a journal's run that are under way (their partitions keep the replicas they
 * had; moves already complete stay), then restores every config the run changed and marks the journal over.
 *
 * <p>Threading: one thread runs it.
 */
public final class Cancellation {

    private final Admin admin;
    private final Journal journal;
    private final RunListener listener;

    public Cancellation(Admin admin, Journal journal, RunListener listener) {
        this.admin = admin;
        this.journal = journal;
        this.listener = listener;
    }

    public void cancel(Duration poll) throws InterruptedException {
        if (journal.isOver()) {
            listener.note("the journal " + journal.file() + " says this run is over; nothing to cancel");
            return;
        }
        Reassignments reassignments = new Reassignments(admin);
        ReassignmentPlan plan = journal.plan().orElse(null);
        ConfigLedger ledger = new ConfigLedger(new DynamicConfigs(admin), journal);
        try {
            if (plan != null) {
                cancelOwnMoves(reassignments, plan, poll);
            }
        } catch (RuntimeException e) {
            // the configs are put back all the same (a cancel the cluster refused left every throttle set, and
            // each rerun failed the same way: a review); the journal keeps the run, for another cancel
            try {
                ledger.restoreAll(listener::note, "sluice reassign cancel " + journal.file());
            } catch (RuntimeException restoring) {
                e.addSuppressed(restoring);
            }
            throw e;
        }
        ledger.restoreAll(listener::note, "sluice reassign cancel " + journal.file());
        journal.cancelled();
    }

    /**
     * Cancels the moves under way that are this run's: among the plan's partitions, those moving to the replicas the
     * plan gives them. A move someone else started on one of them (another target) is theirs, and is left alone.
     */
    private void cancelOwnMoves(Reassignments reassignments, ReassignmentPlan plan, Duration poll)
            throws InterruptedException {
        Map<TopicPartition, List<Integer>> planned = plan.moves().stream().collect(Collectors.toMap(
                PartitionMove::topicPartition, PartitionMove::to));
        Map<TopicPartition, List<Integer>> targets = reassignments.targets(planned.keySet());
        Set<TopicPartition> ongoing = targets.entrySet().stream()
                .filter(e -> e.getValue().equals(planned.get(e.getKey()))).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        Set<TopicPartition> others = new java.util.TreeSet<>(java.util.Comparator.comparing(TopicPartition::toString));
        others.addAll(targets.keySet());
        others.removeAll(ongoing);
        if (!others.isEmpty()) {
            listener.note("left alone, moving elsewhere than this plan moves them (another run's or tool's moves): "
                    + others.stream().map(TopicPartition::toString).collect(Collectors.joining(", ")));
        }
        if (ongoing.isEmpty()) {
            return;
        }
        reassignments.cancel(ongoing);
        listener.note("cancelled the moves of " + ongoing.stream().map(TopicPartition::toString).sorted()
                .collect(Collectors.joining(", ")));
        while (!reassignments.ongoing(ongoing).isEmpty()) {
            Thread.sleep(poll.toMillis());
        }
        restoreOrder(reassignments, plan, ongoing, poll);
    }

    /**
     * Kafka gives a cancelled partition its old replicas back, but in the order of the move's list: the preferred
     * leader may change. Reordering to the list before the move copies nothing.
     */
    private void restoreOrder(Reassignments reassignments, ReassignmentPlan plan, Set<TopicPartition> cancelled,
            Duration poll) throws InterruptedException {
        Map<TopicPartition, List<Integer>> now = reassignments.replicas(
                cancelled.stream().map(TopicPartition::topic).collect(Collectors.toSet()));
        List<PartitionMove> reorders = plan.moves().stream()
                .filter(m -> cancelled.contains(m.topicPartition()))
                .filter(m -> !m.from().equals(now.get(m.topicPartition()))
                        && Set.copyOf(m.from()).equals(Set.copyOf(now.get(m.topicPartition()))))
                .map(m -> new PartitionMove(m.topic(), m.partition(), now.get(m.topicPartition()), m.from(), 0))
                .toList();
        if (reorders.isEmpty()) {
            return;
        }
        reassignments.start(reorders);
        while (!reassignments.ongoing(cancelled).isEmpty()) {
            Thread.sleep(poll.toMillis());
        }
        reassignments.electPreferredLeaders(cancelled);
    }
}
