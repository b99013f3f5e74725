package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * The current ID of each consumed topic. A topic deleted and created again under the same name gets a new ID; the
 * engine stores the ID with every commit, so a committed offset of the old topic is never applied to the new one.
 *
 * <p>Threading: the consumer thread only.
 */
final class TopicIds implements AutoCloseable {

    private final Admin admin;
    private final Duration timeout;
    private final KnownTopicIds ids;

    TopicIds(Admin admin, Duration timeout, KnownTopicIds ids) {
        this.admin = admin;
        this.timeout = timeout;
        this.ids = ids;
    }

    /** Looks the IDs up again for the topics of {@code partitions} (at every assignment: topics may be recreated). */
    void refresh(Collection<TopicPartition> partitions) {
        Set<String> topics = partitions.stream().map(TopicPartition::topic).collect(Collectors.toSet());
        try {
            Map<String, TopicDescription> found = admin.describeTopics(topics).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            found.forEach((name, description) -> ids.put(name, description.topicId()));
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot look up the IDs of topics " + topics + ": " + ErrorWords.of(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Forgets the IDs of topics none of whose partitions is assigned any more: a pattern subscription that sees topics
     * come and go (a topic a day) would otherwise keep every one it ever read. An assignment looks its IDs up again.
     */
    void retain(Set<String> assignedTopics) {
        ids.retain(assignedTopics);
    }

    Uuid idOf(String topic) {
        Uuid id = ids.of(topic);
        if (id == null) {
            throw new IllegalStateException("no ID known for topic " + topic);
        }
        return id;
    }

    @Override
    public void close() {
        admin.close(timeout);
    }
}
