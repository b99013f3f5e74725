package io.sluice.mirror.topics;

import io.sluice.core.ErrorWords;
import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the target topics this instance made ready like their source topics while the mirror runs, one round every
 * interval on a daemon thread of its own: a source topic's new partitions are added to the target topic, and the
 * configs {@link TopicConfigRule} copies follow the source's (changed ones set, removed ones deleted, so that the
 * target's default applies again). Keys the rule does not copy are the target's own and never touched. A target
 * topic with more partitions than its source is reported once: the mirror keeps partition numbers, so the extra
 * partitions get no copies. A round that fails is logged and the next one tries again; the mirror runs on.
 *
 * <p>The engine's consumer learns of new source partitions from its metadata, refreshed every
 * {@code metadata.max.age.ms} (5 minutes by default), so a round usually grows the target first. When the engine is
 * faster, the claim of a new partition grows the target topic itself ({@link TargetTopics#ensure}) before the first
 * copy; either way no copy waits for a partition that does not exist.
 *
 * <p>Threading: {@link #start} and {@link #close} from any thread; the rounds run on the sync's own thread, which
 * alone touches {@code missingOnce}.
 */
public final class TopicSync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TopicSync.class);

    private final ClusterTopics source;
    private final ClusterTopics target;
    private final TargetTopics topics;
    private final TopicNaming naming;
    private final Duration interval;
    /** Target topics already reported for having more partitions than their source. */
    /** Target topics found missing by the last round. */
    private final Set<String> missingOnce = new HashSet<>();
    private final ScheduledExecutorService thread;

    private TopicSync(ClusterTopics source, ClusterTopics target, TargetTopics topics, TopicNaming naming,
            Duration interval, String name) {
        this.source = source;
        this.target = target;
        this.topics = topics;
        this.naming = naming;
        this.interval = interval;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-topic-sync-" + name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the rounds, the first one {@code interval} from now (the claims make the topics ready first). */
    public static TopicSync start(ClusterTopics source, ClusterTopics target, TargetTopics topics, TopicNaming naming,
            Duration interval, String name) {
        TopicSync sync = new TopicSync(source, target, topics, naming, interval, name);
        sync.thread.scheduleWithFixedDelay(sync::round, interval.toMillis(), interval.toMillis(),
                TimeUnit.MILLISECONDS);
        return sync;
    }

    private void round() {
        Set<String> prepared = topics.prepared();
        if (prepared.isEmpty()) {
            return;
        }
        Map<String, ClusterTopics.State> sources;
        Map<String, ClusterTopics.State> targets;
        try {
            sources = source.describe(prepared);
            targets = target.describe(prepared.stream().map(naming::target).toList());
        } catch (RuntimeException e) {
            failed("cannot compare the target topics with the source's", e);
            return;
        }
        for (String topic : prepared) {
            if (!sources.containsKey(topic)) {
                topics.forget(topic); // deleted at the source: what that means for its copies is the copy's to say
            }
        }
        sources.forEach((topic, from) -> {
            String name = naming.target(topic);
            ClusterTopics.State to = targets.get(name);
            if (to == null) {
                // deleted on the target since a claim made it (and with it the progress committed there): the next
                // claim of its partitions makes it again, which it would not if it were still known as made. Missing
                // twice in a row: once may be a claim making it again between the list and the description, or a
                // broker whose metadata lags a creation
                if (!missingOnce.add(name)) {
                    missingOnce.remove(name);
                    topics.forget(topic);
                    LOG.warn("the target topic {} does not exist any more (deleted?): copies to it fail until a claim "
                            + "of its partitions makes it again", name);
                }
                return;
            }
            missingOnce.remove(name);
            try {
                follow(topic, name, from, to);
            } catch (RuntimeException e) {
                failed("cannot make the target topic " + name + " like the source topic " + topic, e);
            }
        });
    }

    private void follow(String topic, String name, ClusterTopics.State from, ClusterTopics.State to) {
        if (from.partitions() > to.partitions()) {
            target.grow(name, from.partitions());
            topics.grew(topic, from.partitions());
            LOG.info("the source topic {} grew to {} partitions: so did the target topic {}", topic,
                    from.partitions(), name);
        } else if (from.partitions() < to.partitions()) {
            topics.warnOfExtraPartitions(name, to.partitions(), topic, from.partitions());
        }
        topics.followConfigs(topic, name, from.configs(), to.configs(), "changed");
    }

    private void failed(String what, RuntimeException e) {
        if (thread.isShutdown()) {
            return; // closing interrupted the round: nothing failed
        }
        String next = interval.toMillis() < 1000 ? interval.toMillis() + " ms" : interval.toSeconds() + " s";
        LOG.warn("{} ({}); trying again in {}", what, ErrorWords.of(e), next);
    }

    /** Stops the rounds; a round under way is interrupted (its admin calls give up) and awaited a little. */
    @Override
    public void close() {
        thread.shutdownNow();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
