package io.sluice.cli.run;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.SourceTopics;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.console.Console;
import io.sluice.cli.pipeline.Delivery;
import io.sluice.cli.pipeline.MetricsConfig;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.cli.probe.BrokerCheck;
import io.sluice.cli.progress.ProgressReporter;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.cli.status.MetricsServer;
import io.sluice.cli.status.SinkMeters;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.core.PartitionStats;
import io.sluice.storage.sink.ArchiveSink;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline until it is told to stop, or until the end offsets seen at start with a bounded run: probes the
 * brokers, builds the engine and the archive sink on one meter registry (served over HTTP when the pipeline or the
 * command line asks), shows progress, and drains on the first SIGINT/SIGTERM (the engine's close: records being
 * written finish, files are sealed, committed and published). A second signal stops at once and says which offsets
 * were not committed.
 *
 * <p>Threading: {@link #run()} runs on the calling thread; the signal handlers only set the stop request.
 */
public final class PipelineRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");
    private static final Duration TICK = Duration.ofMillis(200);
    private static final Duration ASSIGNMENT_WARNING = Duration.ofSeconds(30);

    /** How a run ended: the exit status, the last reading, and how long it ran. */
    public record Outcome(int exitStatus, ProgressSample last, Duration elapsed) {
    }

    private final Pipeline pipeline;
    private final Console console;
    private String label = "archiving";
    private Duration progressEvery = Duration.ofSeconds(30);
    private Consumer<EngineConfig.Builder> engineSettings = builder -> { };
    private MetricsConfig metrics;

    public PipelineRun(Pipeline pipeline, Console console) {
        this.pipeline = pipeline;
        this.console = console;
        this.metrics = pipeline.metrics();
    }

    /**
     * @param label    what the progress line says is going on, e.g. "archiving"
     * @param logEvery without a terminal, how often a progress line is logged
     */
    public PipelineRun progress(String label, Duration logEvery) {
        this.label = label;
        this.progressEvery = logEvery;
        return this;
    }

    /** Engine settings over the pipeline's, such as a bounded run's. */
    public PipelineRun engine(Consumer<EngineConfig.Builder> settings) {
        this.engineSettings = settings;
        return this;
    }

    /** The metrics endpoint, instead of the pipeline's own {@code metrics} section. */
    public PipelineRun metrics(MetricsConfig metrics) {
        this.metrics = metrics;
        return this;
    }

    /**
     * @throws ConfigException when the pipeline cannot run as written (a storage not in this build; a broker that
     *     speaks another protocol than the file says)
     * @throws RunFailure      when the brokers, the storage or the metrics port cannot be used
     */
    public Outcome run() throws Exception {
        pipeline.requireRunnable();
        BrokerCheck.require(pipeline);
        List<String> topics = SourceTopics.resolve(pipeline.source());
        EngineConfig.Builder builder = PipelineParts.engine(pipeline, topics);
        engineSettings.accept(builder);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EngineConfig config = builder.meterRegistry(registry).build();
        try (MetricsServer server = serveMetrics(registry); ArchiveSink sink = PipelineParts.sink(pipeline)) {
            SinkMeters.bind(registry, config.groupId(), sink);
            LOG.info("archiving topics {} (group {}) to {}", String.join(", ", topics), pipeline.source().group(),
                    pipeline.sink().describe());
            long start = System.nanoTime();
            Running running = new Running(Engine.startSink(config, sink), sink);
            if (server != null) {
                server.watch(running.engine);
            }
            ShutdownSignals signals = ShutdownSignals.install(() -> running.requestStop("signal received"),
                    () -> stopNow(running.engine));
            ProgressReporter reporter = new ProgressReporter(console, label, progressEvery);
            try {
                loop(running, reporter, start);
            } finally {
                running.requestStop("the run is ending"); // no-op when a stop was requested already
                drain(running);
                signals.close();
                reporter.finish();
            }
            ProgressSample last = running.progress();
            Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
            return new Outcome(report(running, last, elapsed), last, elapsed);
        }
    }

    /** The endpoint, when asked for, serving {@code registry}; null otherwise. */
    private MetricsServer serveMetrics(PrometheusMeterRegistry registry) throws RunFailure {
        Optional<InetSocketAddress> endpoint = metrics.endpoint();
        if (endpoint.isEmpty()) {
            return null;
        }
        try {
            MetricsServer server = MetricsServer.start(registry, endpoint.get());
            LOG.info("metrics at {}, liveness at /health, readiness at /ready", server.uri("/metrics"));
            return server;
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }

    private void loop(Running running, ProgressReporter reporter, long start) {
        boolean warned = false;
        while (true) {
            ProgressSample now = running.progress();
            reporter.update(now);
            if (!warned && running.engine.partitions().isEmpty()
                    && now.nanos() - start > ASSIGNMENT_WARNING.toNanos()) {
                warned = true;
                LOG.warn("no partition assigned after {} s: are the brokers reachable ({}), do the topics exist, or "
                        + "do other instances of group {} hold every partition?", ASSIGNMENT_WARNING.toSeconds(),
                        String.join(",", pipeline.source().bootstrapServers()), pipeline.source().group());
            }
            if (running.stopReason.get() != null || running.engine.awaitTermination(TICK)) {
                return;
            }
        }
    }

    private void drain(Running running) {
        if (running.engine.health() == Health.STOPPED || running.engine.health() == Health.FAILED) {
            return;
        }
        LOG.info("stopping ({}): finishing the records being written, then committing and publishing their files; "
                + "a second Ctrl-C stops at once", running.stopReason.get());
        running.engine.close();
    }

    private int report(Running running, ProgressSample last, Duration elapsed) {
        Health health = running.engine.health();
        String totals = String.format(Locale.ROOT, "%,d records done, %,d files published, in %.1f s",
                last.records(), last.files(), elapsed.toMillis() / 1000.0);
        if (health == Health.STOPPED) {
            LOG.info("stopped cleanly: {}", totals);
            return ExitStatus.OK;
        }
        String why = running.engine.failure().map(PipelineRun::describe)
                .orElse("the engine did not stop within the drain timeout");
        LOG.error("stopped with an error: {}. {}; a restart resumes from the committed offsets.", why, totals);
        return ExitStatus.FAILURE;
    }

    private static String describe(Throwable failure) {
        StringBuilder b = new StringBuilder(String.valueOf(failure.getMessage()));
        for (Throwable cause = failure.getCause(); cause != null && cause != failure; cause = cause.getCause()) {
            if (cause.getMessage() != null && !b.toString().contains(cause.getMessage())) {
                b.append(": ").append(cause.getMessage());
            }
        }
        return b.toString();
    }

    /** The second signal: report what a stop now leaves uncommitted, then halt without draining. */
    private void stopNow(Engine engine) {
        StringBuilder b = new StringBuilder("second signal: stopping at once, without draining. Not committed:");
        for (PartitionStats p : engine.partitions()) {
            long read = p.watermark() + p.watermarkGap();
            b.append(String.format(Locale.ROOT, "%n  %s: ", p.partition()));
            if (p.committedOffset() < 0) {
                b.append(String.format(Locale.ROOT, "nothing committed by this run (read up to offset %,d)", read));
            } else {
                b.append(String.format(Locale.ROOT, "from offset %,d (%,d records read after it)", p.committedOffset(),
                        Math.max(0, read - p.committedOffset())));
            }
        }
        b.append(System.lineSeparator()).append(pipeline.sink().delivery() == Delivery.EXACTLY_ONCE
                ? "None of these were published; a restart archives them again from the committed offsets."
                : "Files published after the last commit hold records that a restart writes again (at-least-once).");
        console.clearStatus();
        console.say(b.toString());
        Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
    }

    /** The started pipeline, as the loop and the signal handlers see it. */
    private static final class Running {
        private final Engine engine;
        private final ArchiveSink sink;
        private final AtomicReference<String> stopReason = new AtomicReference<>();

        Running(Engine engine, ArchiveSink sink) {
            this.engine = engine;
            this.sink = sink;
        }

        ProgressSample progress() {
            return ProgressSample.of(engine, () -> sink.counters().published());
        }

        void requestStop(String reason) {
            stopReason.compareAndSet(null, reason);
        }
    }
}
