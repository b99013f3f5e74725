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
        if (plan != null) {
            Set<TopicPartition> ours = plan.moves().stream().map(PartitionMove::topicPartition)
                    .collect(Collectors.toSet());
            Set<TopicPartition> ongoing = reassignments.ongoing(ours).keySet();
            if (!ongoing.isEmpty()) {
                reassignments.cancel(ongoing);
                listener.note("cancelled the moves of " + ongoing.stream().map(TopicPartition::toString).sorted()
                        .collect(Collectors.joining(", ")));
                while (!reassignments.ongoing(ongoing).isEmpty()) {
                    Thread.sleep(poll.toMillis());
                }
                restoreOrder(reassignments, plan, ongoing, poll);
            }
        }
        new ConfigLedger(new DynamicConfigs(admin), journal).restoreAll(listener::note,
                "sluice reassign cancel " + journal.file());
        journal.cancelled();
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
