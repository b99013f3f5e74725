package io.sluice.core.internal.consumer;

import io.sluice.core.ErrorWords;
import io.sluice.core.internal.EngineLog;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;

/**
 * What the engine consumes: the topics named, or every topic whose whole name matches a pattern, topics created while
 * it runs included (the consumer matches the pattern against its metadata, refreshed every
 * {@code metadata.max.age.ms}, and the group rebalances to hand the new partitions out).
 *
 * <p>Threading: immutable.
 */
public record Subscription(List<String> topics, Pattern pattern) {

    public Subscription {
        topics = List.copyOf(topics);
        if (topics.isEmpty() == (pattern == null)) {
            throw new IllegalArgumentException("topics or a pattern, not both and not neither");
        }
    }

    /** @param pattern null when the topics are named */
    public static Subscription of(List<String> topics, Pattern pattern) {
        return new Subscription(pattern == null ? topics : List.of(), pattern);
    }

    void subscribe(Consumer<?, ?> consumer, ConsumerRebalanceListener listener) {
        if (pattern == null) {
            consumer.subscribe(topics, listener);
        } else {
            consumer.subscribe(pattern, listener);
        }
    }

    /**
     * The topics consumed as of now: the named ones, or those of the cluster whose name matches (internal topics
     * excluded, as the consumer excludes them).
     */
    List<String> topicsNow(Admin admin, Duration timeout) {
        if (pattern == null) {
            return topics;
        }
        try {
            return admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS).stream()
                    .filter(name -> pattern.matcher(name).matches()).sorted().toList();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot list the topics to match '" + pattern + "': " + ErrorWords.of(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * Asks the cluster for its topics and logs, when it answers, what of this subscription it lacks: a consumer
     * subscribed to a topic that does not exist waits for it without a word of its own but a client warning a second.
     * Does not wait for the answer (the caller goes on to subscribe); no answer, no word.
     */
    void warnIfMissing(Admin admin) {
        admin.listTopics(new ListTopicsOptions().listInternal(true)).names().whenComplete((names, error) -> {
            if (error == null) {
                missing(names).ifPresent(EngineLog.LOG::warn);
            }
        });
    }

    /**
     * What {@code names} (the topics a client may describe) lack of this subscription, in words: the named topics not
     * among them, or, for a pattern, that none matches; empty when nothing is missing.
     */
    Optional<String> missing(Set<String> names) {
        String tail = " (--verbose shows the clients' retries meanwhile)";
        if (pattern != null) {
            return names.stream().anyMatch(name -> pattern.matcher(name).matches()) ? Optional.empty()
                    : Optional.of("no topic of the source cluster that this client may describe matches '" + pattern
                            + "': the run waits for one" + tail);
        }
        List<String> missing = topics.stream().filter(t -> !names.contains(t)).toList();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        boolean one = missing.size() == 1;
        return Optional.of((one ? "topic " : "topics ") + String.join(", ", missing) + (one ? " does" : " do")
                + " not exist on the source cluster, or this client may not describe " + (one ? "it" : "them")
                + ": the run waits for " + (one ? "it" : "them") + tail);
    }

    @Override
    public String toString() {
        return pattern == null ? String.join(", ", topics) : "topics matching '" + pattern + "'";
    }
}
