package io.sluice.merge.read;

import io.sluice.core.commit.Silence;
import io.sluice.merge.MergeInput;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether an input's cluster answers, from its reader's count of responses. A reader with a partition to fetch hears
 * from the cluster at least every fetch wait (half a second by default) even at the partition's end; with every
 * partition paused (the input is ahead of the merge) it asks nothing and owes nothing. The merge itself only sees an
 * input go silent and, after {@code max-wait}, goes on without it (docs/merge.md): this says why, in words, once when
 * the cluster has not answered for the grace period, and once when it answers again, where the clients log a warning
 * for every retry (shown only with {@code --verbose}).
 *
 * <p>Threading: the reader's thread looks ({@link #look}); {@link #unansweredFor} from any thread.
 */
final class InputReach {

    /** As the engine's source watch: long past a broker's usual answer, short beside the merge's wait. */
    static final Duration GRACE = Duration.ofSeconds(15);

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");

    private final MergeInput input;
    private final Duration maxWait;
    private final Silence silence;
    private Metric responses;
    private double responsesSeen = Double.NaN;
    /** The silence said at the last look, in nanos, or -1: what other threads read. */
    private volatile long unansweredNanos = -1;

    /**
     * The shortest grace: a reader at its partitions' ends hears from its cluster about every half second (a fetch the
     * broker holds for {@code fetch.max.wait.ms}, an end confirmed), so a max-wait of a second or less would otherwise
     * say and unsay a silence several times a second.
     */
    static final Duration SHORTEST_GRACE = Duration.ofSeconds(3);

    /**
     * Said after {@link #GRACE}, or after {@code maxWait} when that is shorter (the merge's own patience), but not
     * before {@link #SHORTEST_GRACE}.
     */
    InputReach(MergeInput input, Duration maxWait) {
        this.input = input;
        this.maxWait = maxWait;
        this.silence = new Silence(grace(maxWait));
    }

    /** {@link #GRACE}, or {@code maxWait} when that is shorter, but not less than {@link #SHORTEST_GRACE}. */
    static Duration grace(Duration maxWait) {
        Duration grace = maxWait.compareTo(GRACE) < 0 ? maxWait : GRACE;
        return grace.compareTo(SHORTEST_GRACE) < 0 ? SHORTEST_GRACE : grace;
    }

    /**
     * Reader thread, at every turn of its loop: {@code metrics} is its consumer's (a live view), {@code fetching}
     * whether a partition is assigned and not paused.
     */
    void look(long now, Map<MetricName, ? extends Metric> metrics, boolean fetching) {
        double seen = responses(metrics);
        boolean answered = Double.isNaN(seen) || seen != responsesSeen;
        responsesSeen = seen;
        switch (silence.look(now, answered, fetching)) {
            case BEGAN -> LOG.warn("no answer from input '{}' ({}) for {} s; its reader retries until it answers. The "
                    + "merge waits for an input that cannot be heard from up to max-wait ({}), then goes on without "
                    + "it: what it sends later below the merged position is late (--verbose shows the clients' "
                    + "retries)", input.name(), cluster(), silence.seconds(), describe(maxWait));
            case ENDED -> LOG.info("input '{}' ({}) answers again, after {} s without an answer; reading goes on",
                    input.name(), cluster(), silence.seconds());
            case NONE -> { }
        }
        unansweredNanos = silence.length(now).map(Duration::toNanos).orElse(-1L);
    }

    /** How long the input's cluster had not answered at the reader's last look, once that was said; else empty. */
    Optional<Duration> unansweredFor() {
        long nanos = unansweredNanos;
        return nanos < 0 ? Optional.empty() : Optional.of(Duration.ofNanos(nanos));
    }

    /** The reader is stopping: nothing it does not hear from now on says anything about the cluster. */
    void closing() {
        unansweredNanos = -1;
    }

    private String cluster() {
        return String.valueOf(input.clientProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    }

    static String describe(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    /** The consumer's responses received so far, or NaN when it has no such metric (then it counts as answered). */
    private double responses(Map<MetricName, ? extends Metric> metrics) {
        if (responses == null) {
            for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
                if (e.getKey().name().equals("response-total") && e.getKey().group().equals("consumer-metrics")) {
                    responses = e.getValue();
                }
            }
            if (responses == null) {
                return Double.NaN;
            }
        }
        return responses.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
