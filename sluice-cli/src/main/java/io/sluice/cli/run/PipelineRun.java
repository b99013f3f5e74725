package io.sluice.cli.run;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.console.Console;
import io.sluice.cli.pipeline.Delivery;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.core.PartitionStats;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline until it is told to stop: builds the engine and the archive sink, shows progress, and drains on the
 * first SIGINT/SIGTERM (the engine's close: records being written finish, files are sealed, committed and
 * published). A second signal stops at once and says which offsets were not committed.
 *
 * <p>Threading: {@link #run()} runs on the calling thread; signal handlers and extensions only set the stop request.
 */
public final class PipelineRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");
    private static final Duration TICK = Duration.ofMillis(200);
    private static final Duration ASSIGNMENT_WARNING = Duration.ofSeconds(30);

    /** How a run ended: the exit status, the last counters, and how long it ran. */
    public record Outcome(int exitStatus, Progress last, Duration elapsed) {
    }

    private final Pipeline pipeline;
    private final List<RunExtension> extensions;
    private final Console console;
    private final ProgressReporter reporter;
    private Predicate<RunningPipeline> done = running -> false;
    private String doneReason = "";

    public PipelineRun(Pipeline pipeline, List<RunExtension> extensions, Console console, String label,
            Duration progressEvery) {
        this.pipeline = pipeline;
        this.extensions = List.copyOf(extensions);
        this.console = console;
        this.reporter = new ProgressReporter(console, label, progressEvery);
    }

    /** Stops (with a drain) once {@code condition} holds, checked a few times a second. */
    public PipelineRun until(Predicate<RunningPipeline> condition, String reason) {
        this.done = condition;
        this.doneReason = reason;
        return this;
    }

    /**
     * @throws ConfigException when the pipeline cannot run as written (a format not in this build; an extension's
     *     check)
     */
    public Outcome run() throws Exception {
        pipeline.requireRunnable();
        for (RunExtension extension : extensions) {
            extension.preflight(pipeline);
        }
        List<String> topics = SourceTopics.resolve(pipeline.source());
        EngineConfig.Builder builder = PipelineParts.engine(pipeline, topics);
        for (RunExtension extension : extensions) {
            extension.configure(pipeline, builder);
        }
        EngineConfig config = builder.build();
        ArchiveSink sink = PipelineParts.sink(pipeline);
        MeteredSink metered = new MeteredSink(sink);
        LOG.info("archiving topics {} (group {}) to {}", String.join(", ", topics), pipeline.source().group(),
                pipeline.sink().describe());
        long start = System.nanoTime();
        Running running = new Running(Engine.startSink(config, metered), sink, metered);
        ShutdownSignals signals = ShutdownSignals.install(() -> running.requestStop("signal received"),
                () -> stopNow(running.engine));
        try {
            List<AutoCloseable> attached = new ArrayList<>();
            try {
                for (RunExtension extension : extensions) {
                    AutoCloseable handle = extension.started(running);
                    if (handle != null) {
                        attached.add(handle);
                    }
                }
                loop(running, start);
            } finally {
                closeAll(attached);
                running.requestStop("the run is ending"); // no-op when a stop was requested already
                drain(running);
            }
        } finally {
            signals.close();
            reporter.finish();
            sink.close();
        }
        Progress last = running.progress();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        return new Outcome(report(running, last, elapsed), last, elapsed);
    }

    private void loop(Running running, long start) {
        reporter.start(running.progress());
        boolean warned = false;
        while (!running.engine.awaitTermination(TICK)) {
            Progress now = running.progress();
            reporter.update(now);
            if (!warned && now.partitions() == 0 && now.nanos() - start > ASSIGNMENT_WARNING.toNanos()) {
                warned = true;
                LOG.warn("no partition assigned after {} s: are the brokers reachable ({}), do the topics exist, or "
                        + "do other instances of group {} hold every partition?", ASSIGNMENT_WARNING.toSeconds(),
                        String.join(",", pipeline.source().bootstrapServers()), pipeline.source().group());
            }
            if (running.stopReason.get() == null && done.test(running)) {
                running.requestStop(doneReason);
            }
            if (running.stopReason.get() != null) {
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

    private int report(Running running, Progress last, Duration elapsed) {
        Health health = running.engine.health();
        String totals = String.format(Locale.ROOT, "%,d records archived in %,d files in %.1f s", last.records(),
                last.files(), elapsed.toMillis() / 1000.0);
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

    private static void closeAll(List<AutoCloseable> handles) {
        for (int i = handles.size() - 1; i >= 0; i--) {
            try {
                handles.get(i).close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", handles.get(i), e.toString());
            }
        }
    }

    /** The started pipeline, as extensions and the stop condition see it. */
    private final class Running implements RunningPipeline {
        private final Engine engine;
        private final ArchiveSink sink;
        private final MeteredSink metered;
        private final AtomicReference<String> stopReason = new AtomicReference<>();

        Running(Engine engine, ArchiveSink sink, MeteredSink metered) {
            this.engine = engine;
            this.sink = sink;
            this.metered = metered;
        }

        @Override
        public Pipeline pipeline() {
            return pipeline;
        }

        @Override
        public Engine engine() {
            return engine;
        }

        @Override
        public ArchiveSink sink() {
            return sink;
        }

        @Override
        public Progress progress() {
            List<PartitionStats> partitions = engine.partitions();
            long lag = partitions.stream().anyMatch(p -> p.lag() >= 0)
                    ? partitions.stream().mapToLong(p -> Math.max(0, p.lag())).sum() : -1;
            return new Progress(metered.records.sum(), metered.bytes.sum(), sink.published.sum(), lag,
                    partitions.size(), engine.health(), System.nanoTime());
        }

        @Override
        public void requestStop(String reason) {
            stopReason.compareAndSet(null, reason);
        }
    }
}
