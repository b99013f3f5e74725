package io.sluice.cli.run;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.SourceTopics;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.console.Console;
import io.sluice.cli.pipeline.Delivery;
import io.sluice.cli.pipeline.MetricsConfig;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.cli.probe.BrokerCheck;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.cli.status.MetricsServer;
import io.sluice.cli.status.RunHealth;
import io.sluice.cli.status.SinkMeters;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.RecordsLostException;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a pipeline until it is told to stop, or until the end offsets seen at start with a bounded run: probes the
 * brokers, builds the engine and the archive sink on one meter registry (served over HTTP when the pipeline or the
 * command line asks), and hands the engine to an {@link EngineRun}: progress, and a drain on the first SIGINT/SIGTERM
 * (the engine's close: records being written finish, files are sealed, committed and published).
 *
 * <p>Threading: {@link #run()} runs on the calling thread.
 */
public final class PipelineRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");

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
     * Runs the archive; after its store went away (HDFS down, S3 past its retries: {@code StorageBackend.outage}),
     * starts it again from the last commit after a {@link RestartPause}, for as long as it takes, unless the run is
     * bounded: an archiver is a service, and an HDFS outage of a minute stopped it (exit 1) at the first failed write
     * (a new user's run). Only once the store took a file in this command: one that never did is more likely a
     * mistake (a mistyped address, DataNodes the client cannot reach) than an outage, and starting again would not end.
     * Kafka's failures are not started again: the consumer rides out a broker outage itself, and what fails the engine
     * (a dead-letter topic unknown for the whole retry window, say) is as often a mistake.
     *
     * @throws ConfigException when the pipeline cannot run as written (a storage not in this build; a broker that
     *     speaks another protocol than the file says)
     * @throws RunFailure      when the brokers, the storage or the metrics port cannot be used
     */
    public EngineRun.Outcome run() throws Exception {
        pipeline.requireRunnable();
        BrokerCheck.require(pipeline);
        List<String> topics = SourceTopics.resolve(pipeline.source());
        EngineConfig.Builder builder = PipelineParts.engine(pipeline, topics);
        engineSettings.accept(builder);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        EngineConfig config = builder.meterRegistry(registry).build();
        try (MetricsServer server = MetricsServer.startIfAsked(registry, metrics.endpoint())) {
            LOG.info("archiving topics {} (group {}) to {}", String.join(", ", topics), pipeline.source().group(),
                    pipeline.sink().describe());
            RestartPause pause = new RestartPause("sluice run", "the archive", LOG::info);
            Done before = new Done(0, 0, false); // by the engines before this one: the stop line is the command's
            long started = System.nanoTime();
            while (true) {
                EngineRun.Outcome outcome = null;
                String why;
                boolean tookAFile = false;
                try (ArchiveSink sink = PipelineParts.sink(pipeline)) {
                    SinkMeters.bind(registry, config.groupId(), sink);
                    Engine engine = Engine.startSink(config, sink);
                    if (server != null) {
                        server.watch(engine);
                    }
                    ArchiveStory story = new ArchiveStory(sink, config.untilEnd(), before, started);
                    outcome = new EngineRun(engine, console, () -> sink.counters().published(), story)
                            .run(label, progressEvery);
                    why = engine.failure().map(EngineRun::describe).orElse("a failure");
                    tookAFile = story.storeTookAFile();
                } catch (RuntimeException e) {
                    if (!pause.restarting() || !TransientFailure.is(e)) {
                        throw e; // the first start's failure is the command's: the brokers were probed before it
                    }
                    why = EngineRun.describe(e);
                    LOG.warn("the archive could not start again: {}", why);
                } finally {
                    pause.started();
                }
                if (outcome != null && !outcome.startsAgain()) {
                    return outcome;
                }
                if (server != null) {
                    server.watch(RunHealth.restarting("the archive", why));
                }
                // the pause grows while the outage lasts: files published are no sign of its end (at least once, they
                // are published before their commit)
                pause.await(outcome == null ? null : outcome.elapsed());
                if (outcome != null) {
                    before = before.and(outcome.last(), tookAFile);
                }
            }
        }
    }

    /**
     * What the engines a command ran before its current one left: files published, how many starts, and whether the
     * store took a file. Not their records done: those after their last commit are done again by the next engine, and
     * a sum counted them twice.
     */
    private record Done(long files, int starts, boolean storeTookAFile) {
        Done and(ProgressSample last, boolean tookAFile) {
            return new Done(files + last.files(), starts + 1, storeTookAFile || tookAFile);
        }
    }

    /** What an archive run's messages say. */
    private final class ArchiveStory implements EngineRun.Story {
        private final ArchiveSink sink;
        private final boolean bounded;
        private final Done before;
        private final long commandStarted;

        /**
         * @param bounded        whether the run ends by itself ({@code --until-end}): it is not started again
         * @param before         what the engines this command ran before this one did
         * @param commandStarted when the command started its first engine ({@link System#nanoTime})
         */
        ArchiveStory(ArchiveSink sink, boolean bounded, Done before, long commandStarted) {
            this.sink = sink;
            this.bounded = bounded;
            this.before = before;
            this.commandStarted = commandStarted;
        }

        @Override
        public String noAssignmentHint() {
            return "are the brokers reachable (" + String.join(",", pipeline.source().bootstrapServers()) + "), do "
                    + "the topics exist, or do other instances of group " + pipeline.source().group() + " hold every "
                    + "partition? One stopped by kill -9 or a second Ctrl-C holds its partitions until its session "
                    + "times out (session.timeout.ms, 45 s by default).";
        }

        @Override
        public String drainMessage() {
            return "finishing the records being written, then committing and publishing their files";
        }

        /**
         * The whole command's files and time, across the engines it started: the last one's alone hid what came before;
         * its records are the last start's.
         */
        @Override
        public String totals(ProgressSample last, Duration elapsed) {
            long files = before.files() + last.files();
            boolean restarted = before.starts() > 0;
            Duration ran = restarted ? Duration.ofNanos(System.nanoTime() - commandStarted) : elapsed;
            return String.format(Locale.ROOT, "%,d %s done%s, %,d %s published, in %.1f s", last.records(),
                    last.records() == 1 ? "record" : "records", restarted ? " since the last of "
                            + (before.starts() + 1) + " starts" : "", files, files == 1 ? "file" : "files",
                    ran.toMillis() / 1000.0);
        }

        /**
         * A store outage, once the store took a file in this command (see {@link PipelineRun#run}); not a bounded run:
         * its end is the source's at its start, and whatever runs it (cron) runs it again.
         */
        @Override
        public boolean startsAgainAfter(Throwable failure) {
            return !bounded && storeTookAFile() && sink.failedByStoreOutage(failure);
        }

        boolean storeTookAFile() {
            return before.storeTookAFile() || sink.counters().sealedFiles() > 0;
        }

        /** An S3 store retrying for minutes showed only "0.00 rec/s · not catching up" (a new user's run). */
        @Override
        public Optional<Duration> targetUnreachable() {
            return sink.storeSilentFor();
        }

        @Override
        public Optional<String> busy() {
            long sealing = sink.filesSealingNow();
            return sealing == 0 ? Optional.empty()
                    : Optional.of(String.format(Locale.ROOT, "rolling: sealing %,d %s", sealing,
                            sealing == 1 ? "file" : "files"));
        }

        @Override
        public Optional<Duration> untilCommit() {
            // a roll by age seals the files; the next commit interval's checkpoint commits them
            return sink.untilAgeRoll().map(age -> age.plus(pipeline.processing().commitInterval()));
        }

        @Override
        public String lostRecordsAdvice(RecordsLostException lost) {
            return "To go on anyway, skipping what is lost, set source.on-offset-out-of-range: earliest (or latest) in "
                    + "the pipeline file";
        }

        @Override
        public String uncommittedFate() {
            return pipeline.sink().delivery() == Delivery.EXACTLY_ONCE
                    ? "None of these were published; a restart archives them again from the committed offsets."
                    : "Files published after the last commit hold records that a restart writes again "
                            + "(at-least-once).";
        }
    }
}
