package io.sluice.mirror.topics;

import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says when target partitions that the mirror has copied nothing to yet already hold records: a mirror started on
 * topics that MirrorMaker 2, another tool or a mirror of another name filled copies every record again after them, and
 * nothing else would tell the user before {@code sluice verify} counts the strangers. Asked while the claim fences and
 * reads the progress, so that it adds no round trip to the claim; a failed ask is not reported (the copy does not
 * depend on it).
 *
 * <p>Threading: any thread (the claim's, the consumer thread).
 */
final class ForeignRecords {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.mirror");
    /** Partitions named in the warning; more are counted. */
    private static final int NAMED = 5;

    private final ClusterTopics target;
    private final TopicNaming naming;
    private final String mirror;
    private final boolean exactlyOnce;

    ForeignRecords(ClusterTopics target, TopicNaming naming, String mirror, boolean exactlyOnce) {
        this.target = target;
        this.naming = naming;
        this.mirror = mirror;
        this.exactlyOnce = exactlyOnce;
    }

    /**
     * Starts asking what the target partitions of {@code sources} hold, so that the answer comes while the claim runs;
     * {@link Asked#warnFor} then says which of those without progress hold records.
     */
    Asked ask(Collection<TopicPartition> sources) {
        List<TopicPartition> targets = sources.stream()
                .map(naming::target).toList();
        return new Asked(target.ranges(targets).toCompletableFuture());
    }

    /** An ask under way. */
    final class Asked {
        private final CompletableFuture<Map<TopicPartition, ClusterTopics.OffsetRange>> ranges;

        private Asked(CompletableFuture<Map<TopicPartition, ClusterTopics.OffsetRange>> ranges) {
            this.ranges = ranges;
        }

        /** What the target partitions hold, as asked: also what a commit of the other delivery is checked against. */
        CompletableFuture<Map<TopicPartition, ClusterTopics.OffsetRange>> ranges() {
            return ranges;
        }

        /**
         * What the target partitions of {@code sources} hold, by source partition; empty when no answer came within
         * {@code wait}.
         */
        Map<TopicPartition, ClusterTopics.OffsetRange> of(Collection<TopicPartition> sources, Duration wait) {
            Map<TopicPartition, ClusterTopics.OffsetRange> bySource = new HashMap<>();
            if (sources.isEmpty()) {
                return bySource;
            }
            try {
                Map<TopicPartition, ClusterTopics.OffsetRange> all = ranges.get(wait.toMillis(), TimeUnit.MILLISECONDS);
                sources.forEach(tp -> {
                    ClusterTopics.OffsetRange range = all.get(naming.target(tp));
                    if (range != null) {
                        bySource.put(tp, range);
                    }
                });
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("could not ask what the target partitions hold: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return bySource;
        }

        /**
         * Warns of those of {@code sources} (claimed, without progress) whose target partitions hold records; waits
         * for the answer at most {@code wait}, and says nothing when none came (the copy does not depend on it).
         */
        void warnFor(Collection<TopicPartition> sources, Duration wait) {
            if (sources.isEmpty()) {
                return;
            }
            Set<TopicPartition> targets = new HashSet<>();
            sources.forEach(tp -> targets.add(naming.target(tp)));
            try {
                Map<TopicPartition, ClusterTopics.OffsetRange> held = new HashMap<>(
                        ranges.get(wait.toMillis(), TimeUnit.MILLISECONDS));
                held.keySet().retainAll(targets);
                warnIfAny(held);
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("could not ask what the target partitions hold: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void warnIfAny(Map<TopicPartition, ClusterTopics.OffsetRange> ranges) {
        String held = held(ranges);
        if (held.isEmpty()) {
            return;
        }
        LOG.warn("the target partitions {} already hold records, but mirror '{}' has copied nothing there yet: its "
                + "copies go after them. If MirrorMaker 2, another tool or a mirror of another name copied them, "
                + "records will be there twice; if this mirror stopped before its first commit, they are its own "
                + "earlier copies{}. sluice verify counts the records that are not this mirror's.", held, mirror,
                exactlyOnce ? ", aborted, which read_committed readers never see" : ", copied again (at least once)");
    }

    /**
     * "orders-0 (offsets 0 to 1,233), orders-1 (offsets 0 to 55)", the partitions that hold records; empty when none
     * does. Offsets, not a count: transaction markers take offsets too, and a count of 1,543 "records" for 1,541 was
     * wrong (a new user's run).
     */
    static String held(Map<TopicPartition, ClusterTopics.OffsetRange> ranges) {
        List<Map.Entry<TopicPartition, ClusterTopics.OffsetRange>> holding = new ArrayList<>();
        ranges.entrySet().stream().filter(e -> e.getValue().count() > 0)
                .sorted(Comparator.comparing((Map.Entry<TopicPartition, ClusterTopics.OffsetRange> e) -> e.getKey()
                        .topic()).thenComparingInt(e -> e.getKey().partition()))
                .forEach(holding::add);
        List<String> named = new ArrayList<>();
        for (Map.Entry<TopicPartition, ClusterTopics.OffsetRange> e : holding.subList(0, Math.min(NAMED,
                holding.size()))) {
            ClusterTopics.OffsetRange range = e.getValue();
            named.add(range.count() == 1 ? String.format(Locale.ROOT, "%s (offset %,d)", e.getKey(), range.start())
                    : String.format(Locale.ROOT, "%s (offsets %,d to %,d)", e.getKey(), range.start(), range.end() - 1));
        }
        String more = holding.size() > NAMED ? " and " + (holding.size() - NAMED) + " more" : "";
        return String.join(", ", named) + more;
    }
}
