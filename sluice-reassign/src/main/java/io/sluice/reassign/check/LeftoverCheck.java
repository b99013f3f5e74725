package io.sluice.reassign.check;

import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.cluster.AdminCalls;
import io.sluice.reassign.execute.ConfigLedger;
import io.sluice.reassign.execute.Reassignments;
import io.sluice.reassign.execute.Throttles;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.ClusterJournalRecord;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.journal.JournalEntry;
import io.sluice.reassign.plan.PartitionMove;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * {@code check}: looks over the whole cluster for what reassignments leave behind (throttles on brokers, the
 * cluster default and topics that no move under way needs; configs the given journal files changed and never
 * restored; configs the cluster's journal topic says a run changed, still set to the run's value while no move
 * under way needs them; moves that make no progress within a window) and, with {@code fix}, removes them:
 * throttles deleted, journaled configs restored to their value before, stalled moves cancelled.
 *
 * <p>Threading: one thread runs it.
 */
public final class LeftoverCheck {

    private final Admin admin;
    private final Duration stallWindow;
    private final ClusterJournal journalTopic;
    private UnderWay underWay = new UnderWay(Set.of(), List.of());

    /**
     * The moves under way as of the last {@link #find}, and the throttles and temporary configs set for them: not left
     * over while they move, but set (after a stopped run they go on without it, and a check that said only "clean"
     * read as if nothing were set: a new user's run).
     */
    public record UnderWay(Set<TopicPartition> moving, List<String> kept) {
    }

    public LeftoverCheck(Admin admin, Duration stallWindow, ClusterJournal journalTopic) {
        this.admin = admin;
        this.stallWindow = stallWindow;
        this.journalTopic = journalTopic;
    }

    public List<Leftover> find(List<Path> journals) throws InterruptedException {
        List<Leftover> found = new ArrayList<>();
        Reassignments reassignments = new Reassignments(admin);
        Map<TopicPartition, PartitionReassignment> ongoing = reassignments.ongoing(Set.of());
        Set<String> silent = new HashSet<>();
        Map<ConfigResource, Map<String, String>> values = new DynamicConfigs(admin).dynamicValues(resources(silent));
        Set<String> throttledTopics = values.entrySet().stream()
                .filter(e -> e.getKey().type() == ConfigResource.Type.TOPIC
                        && Throttles.TOPIC_KEYS.stream().anyMatch(k -> !e.getValue().getOrDefault(k, "").isEmpty()))
                .map(e -> e.getKey().name()).collect(Collectors.toSet());
        List<Leftover.StalledMove> stalled = stalled(reassignments, ongoing, throttledTopics);
        found.addAll(stalled);
        Set<TopicPartition> progressing = new HashSet<>(ongoing.keySet());
        stalled.forEach(s -> progressing.remove(s.partition()));
        Set<String> movingTopics = progressing.stream().map(TopicPartition::topic).collect(Collectors.toSet());

        List<String> kept = new ArrayList<>();
        Set<String> journaled = new HashSet<>();
        for (Path journal : journals) {
            List<JournalEntry> entries = Journal.read(journal);
            if (Journal.isOver(entries)) {
                continue;
            }
            for (ConfigChange change : Journal.pending(entries)) {
                journaled.add(change.id());
                found.add(new Leftover.Unrestored(journal, change));
            }
        }

        Map<String, List<String>> journaledOnSilent = new HashMap<>();
        silent.forEach(b -> journaledOnSilent.put(b, new ArrayList<>()));
        for (ClusterJournalRecord record : journalTopic.records()) {
            ConfigChange change = record.change();
            if (change.type() == ConfigResource.Type.BROKER && silent.contains(change.name())) {
                // its value cannot be read: neither restored nor changed since, as far as anyone here can tell
                journaledOnSilent.get(change.name()).add(change.key() + "=" + change.value());
                continue;
            }
            boolean inPlace = change.value().equals(values.getOrDefault(change.resource(), Map.of()).get(change.key()));
            boolean needed = change.type() == ConfigResource.Type.BROKER ? !progressing.isEmpty()
                    : movingTopics.contains(change.name());
            // a value changed since is no longer the run's to restore; one a move under way needs is not left over
            if (inPlace && !journaled.contains(change.id())) {
                journaled.add(change.id());
                if (!needed) {
                    found.add(new Leftover.InJournalTopic(record));
                } else {
                    kept.add(change + "=" + change.value());
                }
            }
        }

        values.forEach((resource, byKey) -> byKey.forEach((key, value) -> {
            boolean broker = resource.type() == ConfigResource.Type.BROKER;
            boolean throttle = broker ? Throttles.BROKER_KEYS.contains(key)
                    : resource.type() == ConfigResource.Type.TOPIC && Throttles.TOPIC_KEYS.contains(key);
            String id = resource.type() + "/" + resource.name() + "/" + key;
            if (!throttle || value.isEmpty() || journaled.contains(id)) {
                return;
            }
            boolean needed = broker ? !progressing.isEmpty() : movingTopics.contains(resource.name());
            if (needed) {
                kept.add(Leftover.where(resource) + " " + key + "=" + value);
            } else {
                found.add(new Leftover.Throttle(resource, key, value));
            }
        }));
        journaledOnSilent.forEach((broker, named) -> found.add(new Leftover.SilentBroker(broker, named)));
        underWay = new UnderWay(Set.copyOf(progressing), List.copyOf(kept));
        return found;
    }

    /** The moves under way at the last {@link #find}, and what is set for them. */
    public UnderWay underWay() {
        return underWay;
    }

    /**
     * Every broker that answers, the cluster default and every topic; the brokers registered with the cluster but
     * fenced (down, or cut off from the controller) go to {@code silent}: their configs are read from themselves, and
     * a check that left them out said "clean" of a throttle on a broker that was down.
     */
    private List<ConfigResource> resources(Set<String> silent) {
        List<ConfigResource> resources = new ArrayList<>();
        Collection<Node> nodes = AdminCalls.get(admin.describeCluster(new DescribeClusterOptions()
                .includeFencedBrokers(true)).nodes(), "describe the cluster");
        resources.add(new ConfigResource(ConfigResource.Type.BROKER, ""));
        for (Node n : nodes) {
            if (n.isFenced()) {
                silent.add(n.idString());
            } else {
                resources.add(new ConfigResource(ConfigResource.Type.BROKER, n.idString()));
            }
        }
        AdminCalls.get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names(), "list topics")
                .forEach(t -> resources.add(new ConfigResource(ConfigResource.Type.TOPIC, t)));
        return resources;
    }

    /** Removes what {@link #find} found. */
    public void fix(List<Leftover> leftovers, Consumer<String> said) {
        DynamicConfigs configs = new DynamicConfigs(admin);
        Set<Path> journals = new LinkedHashSet<>();
        for (Leftover leftover : leftovers) {
            if (leftover instanceof Leftover.Throttle t) {
                configs.set(t.resource(), t.key(), null);
                said.accept("removed " + t.describe());
            } else if (leftover instanceof Leftover.Unrestored u) {
                journals.add(u.journal());
            } else if (leftover instanceof Leftover.InJournalTopic j) {
                ConfigChange change = j.record().change();
                ConfigLedger.restore(configs, change);
                journalTopic.restored(j.record().run(), change);
                said.accept("restored " + change + (change.previous() == null ? " (removed)" : " to "
                        + change.previous()) + ", per the journal topic");
            } else if (leftover instanceof Leftover.StalledMove s) {
                new Reassignments(admin).cancel(Set.of(s.partition()));
                said.accept("cancelled the " + s.describe());
            } else if (leftover instanceof Leftover.SilentBroker b) {
                said.accept("not fixed: " + b.describe());
            }
        }
        for (Path path : journals) {
            try (Journal journal = Journal.open(path, journalTopic.restoresOnly())) {
                new ConfigLedger(configs, journal).restoreAll(said, "sluice reassign check --fix --journal "
                        + path);
            }
        }
    }

    /**
     * Kafka's replication quota may hold a throttled copy back for up to its window (11 one-second samples) once a
     * burst is spent: a shorter look at a throttled move cannot tell that pause from a stall, and {@code --fix} cancelled
     * healthy moves under a tight throttle (a 16 KiB/s move was "stalled" in a 2 s and a 5 s window).
     */
    static final Duration THROTTLE_PAUSE = Duration.ofSeconds(15);

    private List<Leftover.StalledMove> stalled(Reassignments reassignments,
            Map<TopicPartition, PartitionReassignment> ongoing, Set<String> throttledTopics)
            throws InterruptedException {
        if (ongoing.isEmpty()) {
            return List.of();
        }
        Set<Integer> alive = AdminCalls.get(admin.describeCluster().nodes(), "describe the cluster").stream()
                .map(Node::id).collect(Collectors.toSet());
        List<Leftover.StalledMove> stalled = new ArrayList<>();
        Map<TopicPartition, PartitionMove> watched = new HashMap<>();
        ongoing.forEach((tp, r) -> {
            List<Integer> gone = r.addingReplicas().stream().filter(b -> !alive.contains(b)).toList();
            if (!gone.isEmpty()) {
                stalled.add(new Leftover.StalledMove(tp, r.addingReplicas(), "brokers " + gone + " are not in the "
                        + "cluster"));
            } else {
                watched.put(tp, moveOf(tp, r));
            }
        });
        if (!watched.isEmpty()) {
            Map<TopicPartition, Long> before = copiedEach(reassignments, watched);
            boolean throttled = watched.keySet().stream().anyMatch(tp -> throttledTopics.contains(tp.topic()));
            Duration window = throttled && stallWindow.compareTo(THROTTLE_PAUSE) < 0 ? THROTTLE_PAUSE : stallWindow;
            Thread.sleep(window.toMillis());
            Set<TopicPartition> still = reassignments.ongoing(watched.keySet()).keySet();
            Map<TopicPartition, Long> after = copiedEach(reassignments, watched);
            for (TopicPartition tp : still) {
                // a copy that caught up does not grow while the leader takes it into sync: not stalled
                if (after.get(tp) <= before.get(tp) && !reassignments.caughtUp(watched.get(tp))) {
                    stalled.add(new Leftover.StalledMove(tp, watched.get(tp).adding(), "its new replicas did not "
                            + "grow in " + window.toSeconds() + " s"));
                }
            }
        }
        return stalled;
    }

    /**
     * The move under way of {@code tp}: during a move, Kafka's replica list holds the old replicas and the new ones
     * together, so the move is from the replicas not being added to those not being removed. (Taken from the whole
     * list, nothing was being added, nothing could be seen to grow, and every healthy move read as stalled.)
     */
    static PartitionMove moveOf(TopicPartition tp, PartitionReassignment r) {
        List<Integer> from = r.replicas().stream().filter(b -> !r.addingReplicas().contains(b)).toList();
        List<Integer> to = r.replicas().stream().filter(b -> !r.removingReplicas().contains(b)).toList();
        return new PartitionMove(tp.topic(), tp.partition(), from, to, Long.MAX_VALUE);
    }

    private static Map<TopicPartition, Long> copiedEach(Reassignments reassignments,
            Map<TopicPartition, PartitionMove> moves) {
        Map<TopicPartition, Long> copied = new HashMap<>();
        moves.forEach((tp, move) -> copied.put(tp, reassignments.copied(List.of(move))));
        return copied;
    }
}
