package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether the source cluster answers, as the consumer's count of responses received says. A member of a group hears
 * from its cluster every few seconds however idle it is (its heartbeats: 3 s by default in the classic protocol, 5 s
 * by the brokers' default in the consumer protocol; fetches far more often), and from nobody while every broker it
 * knows is down, cut off or silent. Open sockets would not tell: a connection attempt to a host that drops packets
 * counts as open until its setup times out (10 to 30 s), and one to a crashed host until its request times out. The
 * consumer's own lag figures stay as they were when it last heard from the brokers, so a run would otherwise read
 * "caught up" through an outage. Says so once in words when no response has come for {@link #GRACE}, and once when
 * one comes again, where the clients log a warning for every retry (shown only with {@code --verbose}).
 *
 * <p>Threading: any thread, under this object's lock: the consumer thread observes on every loop, and a reader of
 * {@link #unreachableFor} observes too, so an outage is seen while the consumer thread waits on a commit (a stop's
 * last one waits for the brokers). The metrics map is the consumer's live view, taken on its thread; its metric values
 * may be read from any thread (as Kafka's JMX reporter reads them).
 */
final class SourceReach {

    /** Three classic heartbeats, or three consumer-protocol heartbeats at the brokers' default, without an answer. */
    static final Duration GRACE = Duration.ofSeconds(15);

    /**
     * Longer than this between two looks (the consumer thread looks at every loop, the progress line every fraction of
     * a second), and it was this process that did not run (SIGSTOP, a machine asleep), not the cluster that did not
     * answer: the count starts again rather than blaming the cluster for the time.
     */
    static final Duration STALLED = Duration.ofSeconds(5);

    private final Map<MetricName, ? extends Metric> metrics;
    private final String where;
    private final long graceNanos;
    private final long stalledNanos;
    /** Whether the consumer waits for its first assignment: then the coordinator may hold its join. */
    private final BooleanSupplier joining;
    private Metric responses;
    private double responsesSeen = Double.NaN;
    /** When the count of responses last moved, or 0 before the first poll (nothing is expected before it). */
    private long answeredAt;
    /** When anyone last looked, or 0 before the first look after the first poll. */
    private long lookedAt;
    /** Whether the cluster answered since the consumer started: a silence while joining is then a held join. */
    private boolean answered;
    private boolean reported;
    /** Whether the silence reported is a held join rather than a cluster that does not answer. */
    private boolean reportedJoin;
    private boolean closed;

    /**
     * @param metrics the consumer's metrics ({@code Consumer#metrics()}, a live view)
     * @param where   the source cluster as the user named it (its bootstrap servers)
     * @param joining whether the consumer still waits for its first assignment
     */
    SourceReach(Map<MetricName, ? extends Metric> metrics, String where, Duration grace, BooleanSupplier joining) {
        this(metrics, where, grace, STALLED, joining);
    }

    SourceReach(Map<MetricName, ? extends Metric> metrics, String where, Duration grace, Duration stalled,
            BooleanSupplier joining) {
        this.metrics = metrics;
        this.where = where;
        this.graceNanos = grace.toNanos();
        this.stalledNanos = stalled.toNanos();
        this.joining = joining;
    }

    /** The consumer has polled: from now on it is expected to hear from its cluster. */
    synchronized void polled(long now) {
        if (answeredAt == 0 && !closed) {
            answeredAt = now;
            responsesSeen = responses();
            // the first poll's own answers (metadata, the coordinator's address) came before this look: a join held
            // right after them is a held join (a restart after a second Ctrl-C logged "no answer from the source
            // cluster" for the 45 s the coordinator held its join, the source up all along)
            answered = responsesSeen > 0;
        }
    }

    /** The consumer is closing: it hears from nobody from now on, and that says nothing about the cluster. */
    synchronized void closing() {
        closed = true;
    }

    /** Takes the consumer's count of responses as of {@code now} (nanos). */
    synchronized void observe(long now) {
        if (answeredAt == 0 || closed) {
            return;
        }
        boolean stalled = lookedAt != 0 && now - lookedAt >= stalledNanos;
        lookedAt = now;
        double seen = responses();
        if (stalled) {
            // this process did not run meanwhile: what it did not hear says nothing of the cluster
            responsesSeen = seen;
            answeredAt = now;
            return;
        }
        if (Double.isNaN(seen) || seen != responsesSeen) {
            long silent = (now - answeredAt) / 1_000_000_000L;
            if (reported && reportedJoin) {
                LOG.info("the group's coordinator answered the join, after {} s", silent);
            } else if (reported) {
                LOG.info("the source cluster ({}) answers again, after {} s without an answer; reading goes on", where,
                        silent);
            }
            answered |= !Double.isNaN(seen) && !Double.isNaN(responsesSeen);
            responsesSeen = seen;
            answeredAt = now;
            reported = false;
        } else if (!reported && now - answeredAt >= graceNanos) {
            reported = true;
            reportedJoin = heldJoin();
            if (reportedJoin) {
                LOG.info("waiting {} s for the group's coordinator to answer the join: it holds a join until the "
                        + "group's earlier members rejoin or their sessions expire (an instance stopped by kill -9 or "
                        + "a second Ctrl-C: up to session.timeout.ms, 45 s by default)",
                        (now - answeredAt) / 1_000_000_000L);
            } else {
                LOG.warn("no answer from the source cluster ({}) for {} s; the consumer retries until it answers"
                        + " (--verbose shows the clients' retries)", where, (now - answeredAt) / 1_000_000_000L);
            }
        }
    }

    /** Whether a silence is a join the coordinator holds: the cluster answered, and the consumer waits to join. */
    private boolean heldJoin() {
        return answered && joining.getAsBoolean();
    }

    /**
     * How long the consumer has heard nothing from its cluster as of {@code now}, once that is the grace period or
     * longer; empty otherwise, before the first poll, while the coordinator holds its join, and once the consumer
     * closes.
     */
    synchronized Optional<Duration> unreachableFor(long now) {
        observe(now);
        if (answeredAt == 0 || closed || now - answeredAt < graceNanos || heldJoin()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(now - answeredAt));
    }

    /** The consumer's responses received so far, or NaN when it has no such metric (then it counts as answered). */
    private double responses() {
        if (responses == null) {
            for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
                if (e.getKey().name().equals("response-total") && e.getKey().group().equals("consumer-metrics")
                        && e.getKey().tags().keySet().equals(java.util.Set.of("client-id"))) {
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
