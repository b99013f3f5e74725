package io.sluice.reassign.cluster;

import io.sluice.reassign.plan.Broker;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.plan.LogDir;
import io.sluice.reassign.plan.PartitionState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Reads a {@link ClusterSnapshot} through the admin client: brokers and racks (DescribeCluster), every partition's
 * replicas (DescribeTopics, internal topics included: a removed broker must give those up too) and every log dir
 * with its volume's size and free bytes and the size of each replica (DescribeLogDirs, KIP-827).
 *
 * <p>Threading: stateless apart from the caller's admin client, which is thread-safe.
 */
public final class ClusterReader {

    private final Admin admin;

    public ClusterReader(Admin admin) {
        this.admin = admin;
    }

    public ClusterSnapshot snapshot() {
        Collection<Node> nodes = AdminCalls.get(admin.describeCluster().nodes(), "describe the cluster");
        List<Broker> brokers = nodes.stream().map(n -> new Broker(n.id(), n.rack()))
                .sorted(java.util.Comparator.comparingInt(Broker::id)).toList();
        Set<String> names = new TreeSet<>(AdminCalls.get(admin.listTopics(new ListTopicsOptions().listInternal(true)).names(),
                "list topics"));
        Map<String, TopicDescription> topics = names.isEmpty() ? Map.of()
                : AdminCalls.get(admin.describeTopics(names).allTopicNames(), "describe topics");
        Map<Integer, Map<String, LogDirDescription>> dirs = AdminCalls.get(
                admin.describeLogDirs(brokers.stream().map(Broker::id).toList()).allDescriptions(), "describe log dirs");

        Map<TopicPartition, Map<Integer, String>> replicaDirs = new HashMap<>();
        Map<TopicPartition, Long> sizes = new HashMap<>();
        List<LogDir> logDirs = new ArrayList<>();
        dirs.forEach((broker, byPath) -> byPath.forEach((path, description) -> {
            long replicaBytes = 0;
            for (Map.Entry<TopicPartition, ReplicaInfo> replica : description.replicaInfos().entrySet()) {
                if (replica.getValue().isFuture()) {
                    continue; // a log-dir move under way: the current replica is counted where it is
                }
                replicaDirs.computeIfAbsent(replica.getKey(), k -> new HashMap<>()).put(broker, path);
                sizes.merge(replica.getKey(), replica.getValue().size(), Math::max);
                replicaBytes += replica.getValue().size();
            }
            logDirs.add(new LogDir(broker, path, description.totalBytes().orElse(-1),
                    description.usableBytes().orElse(-1), replicaBytes));
        }));

        List<PartitionState> partitions = new ArrayList<>();
        for (String name : names) {
            TopicDescription topic = topics.get(name);
            for (TopicPartitionInfo p : topic.partitions()) {
                TopicPartition tp = new TopicPartition(name, p.partition());
                partitions.add(new PartitionState(name, p.partition(), p.replicas().stream().map(Node::id).toList(),
                        replicaDirs.getOrDefault(tp, Map.of()), sizes.getOrDefault(tp, 0L)));
            }
        }
        return new ClusterSnapshot(brokers, partitions, logDirs);
    }
}
