package io.sluice.core.internal.consumer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * The end offsets of paused partitions, asked of the source cluster in the background. A paused partition is not
 * fetched, so the consumer's lag for it stays what it was at the pause while its topic grows: a mirror whose target
 * was down for two minutes (every partition paused for the memory budget) showed half its real lag, and an alert on
 * lag would have read that. An answer is never newer than the truth, so a lag taken from it never overstates.
 *
 * <p>Threading: {@link #refresh} and {@link #endOf} on the consumer thread; the answers arrive on the admin client's
 * thread, into a concurrent map.
 */
final class PausedEnds {

    static final Duration EVERY = Duration.ofSeconds(5);

    private final Admin admin;
    private final IsolationLevel isolation;
    private final long everyNanos;
    private final Map<TopicPartition, Long> ends = new ConcurrentHashMap<>();
    /** The consumer thread's: when the next question may go. */
    private long nextAsk;
    /** Whether a question is out: written by either thread. */
    private volatile boolean asking;

    /** @param admin the source cluster's admin client; null for none (then nothing is known) */
    PausedEnds(Admin admin, IsolationLevel isolation, Duration every) {
        this.admin = admin;
        this.isolation = isolation;
        this.everyNanos = every.toNanos();
    }

    /** Asks for the ends of {@code paused} when the last answer is older than the interval; forgets the others. */
    void refresh(Set<TopicPartition> paused, long now) {
        ends.keySet().retainAll(paused);
        if (admin == null || paused.isEmpty() || asking || now - nextAsk < 0) {
            return;
        }
        nextAsk = now + everyNanos;
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        paused.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
        asking = true;
        try {
            // each partition's answer on its own: one that fails (a topic deleted) leaves the others known
            ListOffsetsResult answers = admin.listOffsets(latest, new ListOffsetsOptions(isolation));
            for (TopicPartition tp : latest.keySet()) {
                answers.partitionResult(tp).whenComplete((info, error) -> {
                    if (info != null) {
                        ends.put(tp, info.offset());
                    }
                });
            }
            answers.all().whenComplete((done, error) -> {
                asking = false; // a failure (the cluster is away) is asked again after the interval
            });
        } catch (RuntimeException e) {
            asking = false; // a closed client: nothing more is known
        }
    }

    /** The last end offset the cluster gave for a paused partition, if any. */
    OptionalLong endOf(TopicPartition partition) {
        Long end = ends.get(partition);
        return end == null ? OptionalLong.empty() : OptionalLong.of(end);
    }
}
