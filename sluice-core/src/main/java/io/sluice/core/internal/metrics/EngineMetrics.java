package io.sluice.core.internal.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.sluice.core.EngineStats;
import io.sluice.core.PartitionStats;
import java.time.Duration;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.apache.kafka.common.TopicPartition;

/**
 * The engine's meters, all named {@code sluice.*} and tagged with the consumer group: record counters, queue and
 * budget gauges, per-partition committed offset, watermark gap, lag (consumed and durable) and stuck time, and timers
 * for processing and commits. Counters and gauges read the engine's own counters when scraped, so the hot path pays
 * nothing for them; only the two timers are recorded as things happen.
 *
 * <p>Threading: safe for concurrent use; Micrometer's meters are.
 */
public final class EngineMetrics {

    private final MeterRegistry registry;
    private final Tags tags;
    private final Timer processing;
    private final Timer commitLatency;
    private final MultiGauge committedOffset;
    private final MultiGauge watermarkGap;
    private final MultiGauge lag;
    private final MultiGauge durableLag;
    private final MultiGauge stuck;
    /**
     * The engine of each group whose meters a registry holds, so that a later engine of the group replaces them only
     * once that one has stopped. Weak: a collected engine's meters read NaN and are replaced too.
     */
    private static final Map<MeterRegistry, Map<String, WeakReference<EngineMetrics>>> ENGINES = new WeakHashMap<>();

    /** Whether this engine's meters replace an earlier, stopped engine's of the group (see {@link #fresh}). */
    private final boolean replacing;
    /** The assigned partitions' latest figures, which the per-partition rows read. */
    private final PartitionFigures figures = new PartitionFigures();
    /** Whether the engine runs (starting, running or draining); false until bound. */
    private volatile BooleanSupplier running = () -> false;
    /** Held here because Micrometer keeps only weak references to what its function meters read. */
    private Supplier<EngineStats> stats;
    /** As {@link #stats}: a gauge on a supplier nobody else holds read NaN after the first full collection. */
    private Supplier<java.util.Optional<java.time.Duration>> unanswered;
    /** As {@link #stats}. */
    private Supplier<? extends Map<?, ?>> stoppedAtGap;

    public EngineMetrics(MeterRegistry registry, String group) {
        this.registry = registry;
        this.tags = Tags.of("group", group);
        this.replacing = takeOver(registry, group, this);
        this.processing = Timer.builder(fresh("sluice.processing"))
                .description("time from a record's first attempt to its end (done, skipped or dead-lettered)")
                .tags(tags).publishPercentileHistogram().maximumExpectedValue(Duration.ofMinutes(5)).register(registry);
        this.commitLatency = Timer.builder(fresh("sluice.commit.latency")).description("offset commit round trips")
                .tags(tags).register(registry);
        this.committedOffset = MultiGauge.builder(fresh("sluice.partition.committed.offset")).tags(tags)
                .register(registry);
        this.watermarkGap = MultiGauge.builder(fresh("sluice.partition.watermark.gap"))
                .description("records handed out beyond the committable offset").tags(tags).register(registry);
        this.lag = MultiGauge.builder(fresh("sluice.partition.lag"))
                .description("consumed lag: records from the watermark (every record below it done) to the log end")
                .tags(tags).register(registry);
        this.durableLag = MultiGauge.builder(fresh("sluice.partition.durable.lag"))
                .description("durable lag: records from the last commit (output visible, e.g. files published) to "
                        + "the log end")
                .tags(tags).register(registry);
        this.stuck = MultiGauge.builder(fresh("sluice.partition.stuck.seconds"))
                .description("how long the watermark has not moved with records pending").tags(tags).register(registry);
    }

    /**
     * Registers the counters and gauges that read {@code stats} whenever they are scraped; {@code running} says whether
     * the engine still runs, for a later engine of the group on this registry.
     */
    public void bind(Supplier<EngineStats> stats, BooleanSupplier running) {
        this.stats = stats;
        this.running = running;
        counter("sluice.records.consumed", "records handed to lanes", stats, EngineStats::consumed);
        counter("sluice.records.completed", "records done", stats, EngineStats::completed);
        counter("sluice.bytes.consumed", "bytes (keys, values, headers) of records handed to lanes", stats,
                EngineStats::consumedBytes);
        counter("sluice.records.failed", "failed attempts", stats, EngineStats::failedAttempts);
        counter("sluice.records.retried", "attempts repeated after a failure", stats, EngineStats::retried);
        counter("sluice.records.skipped", "records skipped after every attempt failed", stats, EngineStats::skipped);
        counter("sluice.records.dead.lettered", "records published to the dead-letter topic", stats,
                EngineStats::deadLettered);
        counter("sluice.records.timeouts", "attempts that overran the processing timeout", stats, EngineStats::timeouts);
        counter("sluice.partitions.revoked", "partitions revoked by rebalances", stats, EngineStats::revoked);
        counter("sluice.partitions.lost", "partitions lost without a commit", stats, EngineStats::lost);
        counter("sluice.commits", "offset commits acknowledged", stats, EngineStats::commits);
        counter("sluice.commit.failures", "offset commits that failed", stats, EngineStats::commitFailures);
        gauge("sluice.queued.records", "records queued or in flight", stats, EngineStats::queuedRecords);
        gauge("sluice.queued.bytes", "bytes of records queued, in flight or held by a sink", stats,
                EngineStats::queuedBytes);
        gauge("sluice.budget.bytes", "the memory budget", stats, EngineStats::budgetBytes);
        gauge("sluice.in.flight", "records being processed now", stats, EngineStats::inFlight);
        gauge("sluice.partitions.paused", "partitions not fetched (backpressure, window or operator)", stats,
                EngineStats::pausedPartitions);
        gauge("sluice.partitions.stuck", "partitions whose watermark has not moved for the stuck threshold", stats,
                EngineStats::stuckPartitions);
    }

    /**
     * Registers the gauge of how long the source cluster has not answered ({@code unanswered}: empty while it answers,
     * then for 15 s). The per-partition lags stay as they were when it last answered: alert on this one for an outage.
     */
    public void bindSource(Supplier<java.util.Optional<java.time.Duration>> unanswered) {
        this.unanswered = unanswered;
        Gauge.builder(fresh("sluice.source.unanswered.seconds"), unanswered,
                        u -> u.get().map(d -> d.toMillis() / 1000.0).orElse(0.0))
                .description("seconds since the source cluster last answered, once 15 s or more; 0 while it answers")
                .tags(tags).register(registry);
    }

    /**
     * Registers the gauge of the partitions stopped because records they were to read are gone
     * ({@code stopped}: {@link io.sluice.core.OutOfRangePolicy#STOP_PARTITION}): records were lost, and the engine
     * ends failed; alert on any.
     */
    public void bindGaps(Supplier<? extends Map<?, ?>> stopped) {
        this.stoppedAtGap = stopped;
        Gauge.builder(fresh("sluice.partitions.stopped.at.gap"), stopped, s -> s.get().size())
                .description("partitions stopped because records they were to read are gone (retention, a topic "
                        + "created again); records were lost")
                .tags(tags).register(registry);
    }

    public Timer processing() {
        return processing;
    }

    public Timer commitLatency() {
        return commitLatency;
    }

    /**
     * Whether an engine of {@code group} may take over the meters of the group on {@code registry}: when no engine of
     * it registered there, or the one that did has stopped (or was collected). Two engines of one group running at
     * once in one JVM share the first one's meters, as Micrometer keeps the first registration and ignores the next.
     */
    private static boolean takeOver(MeterRegistry registry, String group, EngineMetrics engine) {
        synchronized (ENGINES) {
            Map<String, WeakReference<EngineMetrics>> byGroup = ENGINES.computeIfAbsent(registry, r -> new HashMap<>());
            WeakReference<EngineMetrics> earlier = byGroup.get(group);
            EngineMetrics before = earlier == null ? null : earlier.get();
            if (before != null && before.running.getAsBoolean()) {
                return false;
            }
            byGroup.put(group, new WeakReference<>(engine));
            return true;
        }
    }

    /**
     * {@code name}, once the meters of that name that a stopped engine of this group registered on this registry are
     * removed: Micrometer keeps the first registration of a name and tags and ignores the next, so an engine started
     * again in the same JVM (an application restarting it after a failure) reported the stopped one's figures, and NaN
     * once that one was collected. A stopped engine's meters stay until a new one replaces them, so a last scrape still
     * reads its totals (while the stopped engine is reachable).
     */
    private String fresh(String name) {
        if (replacing) {
            registry.find(name).tags(tags).meters().forEach(registry::remove);
        }
        return name;
    }

    /**
     * Updates the per-partition gauges to {@code partitions}; their rows are registered again only when the
     * assignment changed, and then only the rows of partitions that came or went change: registering every row every
     * second (as this did) removed and added each series each time, so a scrape that came in between missed it, which
     * an {@code absent()} alert reads as the partition gone.
     */
    public void partitions(List<PartitionStats> partitions) {
        Map<TopicPartition, PartitionStats> now = new LinkedHashMap<>();
        partitions.forEach(p -> now.put(p.partition(), p));
        boolean changed = !now.keySet().equals(figures.current.keySet());
        figures.current = now;
        if (changed) {
            committedOffset.register(rows(PartitionStats::committedOffset), false);
            watermarkGap.register(rows(PartitionStats::watermarkGap), false);
            lag.register(rows(PartitionStats::lag), false);
            durableLag.register(rows(PartitionStats::durableLag), false);
            stuck.register(rows(p -> p.stuckMillis() / 1000.0), false);
        }
    }

    /**
     * A row per assigned partition that reads the partition's latest figures when scraped. Micrometer holds each row's
     * object strongly, so it is {@link PartitionFigures}, not this object (which holds the engine through its stats
     * supplier: a stopped engine would stay in memory for as long as the registry); a partition no longer assigned
     * reads NaN until the next registration drops its row.
     */
    private List<MultiGauge.Row<?>> rows(ToDoubleFunction<PartitionStats> value) {
        return figures.current.keySet().stream()
                .<MultiGauge.Row<?>>map(tp -> MultiGauge.Row.of(
                        Tags.of("topic", tp.topic(), "partition", Integer.toString(tp.partition())), figures,
                        f -> {
                            PartitionStats p = f.current.get(tp);
                            return p == null ? Double.NaN : value.applyAsDouble(p);
                        }))
                .toList();
    }

    /** The assigned partitions' latest figures; replaced whole on the consumer thread, read by any scrape. */
    private static final class PartitionFigures {
        volatile Map<TopicPartition, PartitionStats> current = Map.of();
    }

    private void counter(String name, String description, Supplier<EngineStats> stats,
            ToDoubleFunction<EngineStats> f) {
        FunctionCounter.builder(fresh(name), stats, s -> f.applyAsDouble(s.get())).description(description).tags(tags)
                .register(registry);
    }

    private void gauge(String name, String description, Supplier<EngineStats> stats, ToDoubleFunction<EngineStats> f) {
        Gauge.builder(fresh(name), stats, s -> f.applyAsDouble(s.get())).description(description).tags(tags)
                .register(registry);
    }
}
