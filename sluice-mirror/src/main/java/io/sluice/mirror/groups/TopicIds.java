package io.sluice.mirror.groups;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The IDs of one cluster's topics, asked once a round of the group sync: a topic deleted and created again under the
 * same name has a new one, and what was learnt of the earlier topic is not of it. A topic that does not exist is left
 * out.
 *
 * <p>Threading: one thread at a time (the group sync's).
 */
final class TopicIds {

    private final Admin admin;
    private final String cluster;
    private final Duration timeout;
    private final Map<String, Uuid> ids = new HashMap<>();
    private final Set<String> gone = new HashSet<>();

    /** @param cluster the cluster's role, for messages: "source" or "target" */
    TopicIds(Admin admin, String cluster, Duration timeout) {
        this.admin = admin;
        this.cluster = cluster;
        this.timeout = timeout;
    }

    /** The IDs of {@code topics} as this round found them (each asked once a round); those that do not exist left out. */
    Map<String, Uuid> of(Set<String> topics) {
        Set<String> unasked = new TreeSet<>(topics);
        unasked.removeAll(ids.keySet());
        unasked.removeAll(gone);
        if (!unasked.isEmpty()) {
            admin.describeTopics(unasked).topicNameValues().forEach((topic, described) -> {
                try {
                    ids.put(topic, AdminCalls.await(described, "describe topic " + topic + " in the " + cluster
                            + " cluster", timeout).topicId());
                } catch (IllegalStateException e) {
                    if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                        throw e;
                    }
                    gone.add(topic);
                }
            });
        }
        Map<String, Uuid> found = new HashMap<>(ids);
        found.keySet().retainAll(topics);
        return found;
    }

    /** Starts a round: every topic is asked again. */
    void startRound() {
        ids.clear();
        gone.clear();
    }
}
