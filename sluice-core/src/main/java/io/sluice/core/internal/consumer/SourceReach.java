package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether the source cluster answers, as the consumer's open connections say. A member of a group keeps at least one
 * open while its cluster answers (to its coordinator, heartbeating every few seconds), and none while every broker it
 * knows is down or cut off; the consumer's own lag figures stay as they were when it last heard from the brokers, so a
 * run would otherwise read "caught up" through an outage. Says so once in words when no connection has been open for
 * {@link #GRACE}, and once when one opens again, where the clients log a warning for every retry (shown only with
 * {@code --verbose}).
 *
 * <p>Threading: any thread, under this object's lock: the consumer thread observes on every loop, and a reader of
 * {@link #unreachableFor} observes too, so an outage is seen while the consumer thread waits on a commit (a stop's
 * last one waits for the brokers). The metrics map is the consumer's live view, taken on its thread; its metric values
 * may be read from any thread (as Kafka's JMX reporter reads them).
 */
final class SourceReach {

    /** Longer than a reconnect's backoff and a coordinator's hand-over, so a blip is not reported. */
    static final Duration GRACE = Duration.ofSeconds(5);

    private final Map<MetricName, ? extends Metric> metrics;
    private final String where;
    private final long graceNanos;
    private Metric connections;
    /** When the consumer was first seen with no connection, or 0 while it has one. */
    private long noneSince;
    private boolean reported;

    /**
     * @param metrics the consumer's metrics ({@code Consumer#metrics()}, a live view)
     * @param where   the source cluster as the user named it (its bootstrap servers)
     */
    SourceReach(Map<MetricName, ? extends Metric> metrics, String where, Duration grace) {
        this.metrics = metrics;
        this.where = where;
        this.graceNanos = grace.toNanos();
    }

    /** Takes the consumer's open connections as of {@code now} (nanos). */
    synchronized void observe(long now) {
        double open = connections();
        if (open > 0 || Double.isNaN(open)) {
            if (reported) {
                LOG.info("the source cluster ({}) answers again, after {} s without a connection; reading goes on",
                        where, (now - noneSince) / 1_000_000_000L);
            }
            noneSince = 0;
            reported = false;
            return;
        }
        if (noneSince == 0) {
            noneSince = now == 0 ? 1 : now;
        } else if (!reported && now - noneSince >= graceNanos) {
            reported = true;
            LOG.warn("cannot reach the source cluster ({}) for {} s; the consumer retries until it answers"
                    + " (--verbose shows the clients' retries)", where, (now - noneSince) / 1_000_000_000L);
        }
    }

    /**
     * How long the consumer has had no connection as of {@code now}, once that is the grace period or longer; empty
     * otherwise.
     */
    synchronized Optional<Duration> unreachableFor(long now) {
        observe(now);
        if (noneSince == 0 || now - noneSince < graceNanos) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos(now - noneSince));
    }

    /** The consumer's open connections, or NaN when it has no such metric (then the source counts as reachable). */
    private double connections() {
        if (connections == null) {
            for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
                if (e.getKey().name().equals("connection-count") && e.getKey().group().equals("consumer-metrics")) {
                    connections = e.getValue();
                }
            }
            if (connections == null) {
                return Double.NaN;
            }
        }
        return connections.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
