package io.sluice.reassign.readers;

import io.sluice.reassign.cluster.AdminCalls;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code who-reads}: per topic, the consumer groups with committed offsets on it, their lag and their members.
 * Groups of both protocols (classic and KIP-848) are read; a group counts for a topic when it committed an offset on
 * one of its partitions, so a group that is down right now still shows, with no member.
 *
 * <p>Threading: stateless apart from the caller's admin client, which is thread-safe.
 */
public final class WhoReads {

    private final Admin admin;

    public WhoReads(Admin admin) {
        this.admin = admin;
    }

    /**
     * The readers of {@code topics} (every topic when empty), by topic, then by group.
     *
     * @throws IllegalArgumentException when a topic named does not exist: "no group reads it" would be true of a
     *     misspelt name too
     */
    public List<TopicReader> of(Set<String> topics) {
        if (!topics.isEmpty()) {
            Set<String> inCluster = AdminCalls.get(admin.listTopics(new ListTopicsOptions().listInternal(true))
                    .names(), "list topics");
            List<String> unknown = topics.stream().filter(t -> !inCluster.contains(t)).sorted().toList();
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException((unknown.size() == 1 ? "topic " : "topics ")
                        + String.join(", ", unknown) + (unknown.size() == 1 ? " does" : " do")
                        + " not exist in the cluster, or this client may not describe "
                        + (unknown.size() == 1 ? "it" : "them"));
            }
        }
        Collection<GroupListing> groups = AdminCalls.get(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all(),
                "list consumer groups");
        List<String> ids = groups.stream().filter(g -> g.type().map(t -> t != GroupType.SHARE).orElse(true))
                .map(GroupListing::groupId).sorted().toList();
        if (ids.isEmpty()) {
            return List.of();
        }
        Map<String, ConsumerGroupDescription> described = AdminCalls.get(admin.describeConsumerGroups(ids).all(),
                "describe consumer groups");
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = new HashMap<>();
        for (String id : ids) {
            Map<TopicPartition, OffsetAndMetadata> offsets = AdminCalls.get(
                    admin.listConsumerGroupOffsets(id).partitionsToOffsetAndMetadata(), "read the offsets of " + id);
            Map<TopicPartition, OffsetAndMetadata> wanted = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (o != null && (topics.isEmpty() || topics.contains(tp.topic()))) {
                    wanted.put(tp, o);
                }
            });
            committed.put(id, wanted);
        }
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        committed.values().forEach(m -> m.keySet().forEach(tp -> ends.put(tp, OffsetSpec.latest())));
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> endOffsets = ends.isEmpty() ? Map.of()
                : AdminCalls.get(admin.listOffsets(ends).all(), "list end offsets");

        List<TopicReader> readers = new ArrayList<>();
        for (String id : ids) {
            Map<String, Long> lagByTopic = new HashMap<>();
            committed.get(id).forEach((tp, o) -> lagByTopic.merge(tp.topic(),
                    Math.max(0, endOffsets.get(tp).offset() - o.offset()), Long::sum));
            ConsumerGroupDescription group = described.get(id);
            List<TopicReader.Member> members = group.members().stream()
                    .map(m -> new TopicReader.Member(m.clientId(), hostOf(m.host()))).distinct()
                    .sorted(Comparator.comparing(TopicReader.Member::clientId).thenComparing(TopicReader.Member::host))
                    .collect(Collectors.toList());
            lagByTopic.forEach((topic, lag) -> readers.add(new TopicReader(topic, id, group.groupState().toString(),
                    lag, members)));
        }
        readers.sort(Comparator.comparing(TopicReader::topic).thenComparing(TopicReader::group));
        return readers;
    }

    /** A member's host as the coordinator gives it, "/127.0.0.1" (an address's toString), without the slash. */
    static String hostOf(String host) {
        return host != null && host.startsWith("/") ? host.substring(1) : host;
    }
}
