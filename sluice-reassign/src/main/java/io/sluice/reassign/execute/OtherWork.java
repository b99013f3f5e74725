package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.plan.PartitionMove;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.PartitionReassignment;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * What a new run must not start beside, and what it should say before it starts. Partition moves under way anywhere in
 * the cluster block it: a run next to them takes their throttles for the values to restore, puts one back for good
 * when it ends after them, overwrites their topics' throttled-replica lists, and its disk projection does not count
 * their copies ({@code kafka-reassign-partitions} and Cruise Control refuse to start beside moves under way as well).
 * Throttles already set on the brokers and topics the plan involves are said, not refused: set on purpose, the run
 * puts them back as they were; left by a run that stopped, they stay after this one too, which the words say (and
 * {@code check --fix} removes). The plan's own moves under way (started by a run whose journal is gone) are not
 * another's: the run waits for them, and the throttles that run left are then expected.
 *
 * <p>Threading: stateless.
 */
public final class OtherWork {

    private static final List<String> THROTTLE_KEYS = List.of(Throttles.LEADER_RATE, Throttles.FOLLOWER_RATE,
            Throttles.LEADER_REPLICAS, Throttles.FOLLOWER_REPLICAS);
    /** The moves named one by one before "and N more". */
    private static final int NAMED = 5;

    private OtherWork() {
    }

    /** What was found: moves that block the run, and throttles to say; each a line in words. */
    public record Found(List<String> blocking, List<String> said) {
    }

    public static Found found(Reassignments reassignments, DynamicConfigs configs, Collection<PartitionMove> moves) {
        List<String> found = new ArrayList<>();
        List<String> throttles = new ArrayList<>();
        Map<TopicPartition, List<Integer>> planned = moves.stream().collect(Collectors.toMap(
                PartitionMove::topicPartition, PartitionMove::to));
        Map<TopicPartition, PartitionReassignment> underWay = new HashMap<>(reassignments.ongoing(Set.of()));
        boolean ownUnderWay = underWay.entrySet().removeIf(e -> e.getValue().replicas().stream()
                .filter(b -> !e.getValue().removingReplicas().contains(b)).toList().equals(planned.get(e.getKey())));
        if (!underWay.isEmpty()) {
            List<String> names = underWay.keySet().stream().map(TopicPartition::toString).sorted().toList();
            found.add(underWay.size() + (underWay.size() == 1 ? " partition is" : " partitions are") + " being moved "
                    + "already (" + String.join(", ", names.subList(0, Math.min(NAMED, names.size())))
                    + (names.size() > NAMED ? " and " + (names.size() - NAMED) + " more" : "") + ")");
        }
        Set<ConfigResource> involved = new TreeSet<>((a, b) -> (a.type() + "/" + a.name()).compareTo(b.type() + "/"
                + b.name()));
        for (PartitionMove move : moves) {
            involved.add(new ConfigResource(ConfigResource.Type.TOPIC, move.topic()));
            for (int broker : move.from()) {
                involved.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)));
            }
            for (int broker : move.to()) {
                involved.add(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(broker)));
            }
        }
        if (involved.isEmpty() || ownUnderWay) {
            return new Found(found, throttles);
        }
        Map<ConfigResource, Map<String, String>> values = configs.dynamicValues(involved);
        for (ConfigResource resource : involved) {
            Map<String, String> own = values.getOrDefault(resource, Map.of());
            String set = THROTTLE_KEYS.stream().filter(own::containsKey).map(k -> k + "=" + own.get(k))
                    .collect(Collectors.joining(", "));
            if (!set.isEmpty()) {
                throttles.add(DynamicConfigs.describe(resource) + " has a throttle set already: " + set);
            }
        }
        return new Found(found, throttles);
    }
}
