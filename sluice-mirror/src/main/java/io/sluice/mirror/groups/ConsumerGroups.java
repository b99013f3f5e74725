package io.sluice.mirror.groups;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * The consumer groups of one cluster, through its admin client: which there are, their committed offsets, whether one
 * has members, and new offsets for one.
 *
 * <p>Threading: any thread (no state of its own; the admin client is thread-safe).
 */
final class ConsumerGroups {

    private final Admin admin;
    /** "source" or "target", for messages. */
    private final String cluster;
    private final Duration timeout;

    ConsumerGroups(Admin admin, String cluster, Duration timeout) {
        this.admin = admin;
        this.cluster = cluster;
        this.timeout = timeout;
    }

    /** The consumer groups whose whole name matches {@code names}, in name order. */
    List<String> matching(Pattern names) {
        return AdminCalls.await(admin.listGroups(ListGroupsOptions.forConsumerGroups()).all(),
                "list the consumer groups of the " + cluster + " cluster", timeout).stream()
                .map(GroupListing::groupId).filter(g -> names.matcher(g).matches()).sorted().toList();
    }

    /** The group's committed offsets; none for a group that does not exist. */
    Map<TopicPartition, Long> committed(String group) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        AdminCalls.await(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(),
                "read the offsets of group '" + group + "' in the " + cluster + " cluster", timeout)
                .forEach((tp, offset) -> {
                    if (offset != null) {
                        offsets.put(tp, offset.offset());
                    }
                });
        return offsets;
    }

    /**
     * Whether the group has members, or might have: only an empty, dead or unknown group has none for certain.
     */
    boolean hasMembers(String group) {
        try {
            ConsumerGroupDescription d = AdminCalls.await(admin.describeConsumerGroups(List.of(group)).all(),
                    "describe group '" + group + "' in the " + cluster + " cluster", timeout).get(group);
            GroupState state = d.groupState();
            return !d.members().isEmpty() || (state != GroupState.EMPTY && state != GroupState.DEAD);
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof GroupIdNotFoundException) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Commits {@code offsets} for the group; the cluster refuses it while the group has members, so a member that
     * joins after {@link #hasMembers} said none is never overwritten. The commits carry no metadata: a consumer that
     * fails over reads it as its own (Kafka Streams decodes it, and older clients fail on what they cannot).
     */
    void commit(String group, Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((tp, offset) -> commit.put(tp, new OffsetAndMetadata(offset)));
        AdminCalls.await(admin.alterConsumerGroupOffsets(group, commit).all(),
                "write the offsets of group '" + group + "' in the " + cluster + " cluster", timeout);
    }
}
