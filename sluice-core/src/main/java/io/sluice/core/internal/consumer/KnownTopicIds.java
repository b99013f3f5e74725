package io.sluice.core.internal.consumer;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.Uuid;

/**
 * The IDs of the topics the engine consumes now, as {@link TopicIds} last looked them up: what a dead letter names as
 * its source topic's ID, so that an audit of a topic deleted and created again under the same name does not take the
 * old topic's letters for the new one's (they name the same offsets, and excused a missing record).
 *
 * <p>Threading: written on the consumer thread, read from any thread (the lanes dead-letter records).
 */
public final class KnownTopicIds {

    private final Map<String, Uuid> ids = new ConcurrentHashMap<>();

    /** The ID of {@code topic}, or null when the engine has not looked it up (not assigned). */
    public Uuid of(String topic) {
        return ids.get(topic);
    }

    void put(String topic, Uuid id) {
        ids.put(topic, id);
    }

    void retain(Set<String> topics) {
        ids.keySet().retainAll(topics);
    }
}
