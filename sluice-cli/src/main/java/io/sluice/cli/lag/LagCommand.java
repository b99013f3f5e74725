package io.sluice.cli.lag;

import io.sluice.cli.cluster.GroupFlags;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.TopicFlags;
import io.sluice.cli.config.OptionValues;
import io.sluice.cli.probe.BootstrapProbe;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code sluice lag}: a consumer group's lag per partition, how fast it is processed, when it is caught up and when
 * retention deletes what it has not processed yet, with one line answering whether it catches up within a target.
 * Inputs come from a pipeline file (when the top-level command wires a reader in) or from flags, flags winning.
 *
 * <p>Threading: picocli runs it on the calling thread.
 */
@Command(name = "lag", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Shows a consumer group's lag per partition: end and committed offsets, lag in records and "
                + "bytes, the processing rate, the time to catch up and the time until retention deletes the oldest "
                + "unconsumed record, then one line: can the lag be caught up within the target?",
            "Takes two samples --interval apart to measure rates; --watch keeps sampling."})
public final class LagCommand implements Callable<Integer> {

    @Parameters(arity = "0..1", paramLabel = "PIPELINE.yaml", description = "A pipeline, mirror or merge file to take "
            + "the brokers, group, topics and client settings (TLS, SASL) from.")
    Path pipeline;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    TopicFlags topicFlags;

    @Mixin
    GroupFlags groupFlags;

    @Option(names = "--metrics-url", paramLabel = "URL", description = "A running instance's /metrics endpoint, or its "
            + "address (http://host:port/, its status page); the processing rate then comes from its completed-records "
            + "counter. Repeat for every instance.")
    List<URI> metricsUrls;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "5s", converter = OptionValues.DurationValue.class,
            description = "Time between samples (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--within", paramLabel = "DURATION", defaultValue = "1h", converter = OptionValues.DurationValue.class,
            description = "The catch-up target the verdict asks about (default ${DEFAULT-VALUE}).")
    Duration within;

    @Option(names = "--watch", description = "Keep sampling and refresh the report every interval.")
    boolean watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N reports.")
    Integer count;

    @Spec
    CommandSpec spec;

    /** Reads the lag inputs out of a pipeline file. */
    @FunctionalInterface
    public interface PipelineInputs {
        /** Throws what reading and checking the file throws; the command line reports it. */
        LagInputs read(Path file) throws Exception;
    }

    /** Files whose lag is not a consumer group's (a merge's): their own report, once. */
    @FunctionalInterface
    public interface FileReports {
        /** The report of {@code file}, or empty when its lag is a group's; throws what reading the file throws. */
        Optional<String> report(Path file) throws Exception;
    }

    private final PipelineInputs pipelines;
    private final FileReports reports;
    private final boolean terminal;
    private final Clock clock;

    /** Without pipeline files: inputs come from flags only. */
    public LagCommand() {
        this(null, false);
    }

    /**
     * @param pipelines reads the lag inputs out of a pipeline file, or null when files are not supported
     * @param terminal  whether the output is a terminal, where {@code --watch} redraws the report in place
     */
    public LagCommand(PipelineInputs pipelines, boolean terminal) {
        this(pipelines, null, terminal);
    }

    /** As {@link #LagCommand(PipelineInputs, boolean)}; {@code reports} (or null) answers for files of their own. */
    public LagCommand(PipelineInputs pipelines, FileReports reports, boolean terminal) {
        this.pipelines = pipelines;
        this.reports = reports;
        this.terminal = terminal;
        this.clock = Clock.systemUTC();
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<String> own = pipeline != null && reports != null ? reports.report(pipeline) : Optional.empty();
        if (own.isPresent()) {
            out.print(own.get());
            out.flush();
            return CommandLine.ExitCode.OK;
        }
        LagInputs inputs = inputs();
        BootstrapProbe probe = new BootstrapProbe(Duration.ofSeconds(5));
        int probed = probe.verifyFor("sluice lag", inputs.clientProperties(), err);
        if (probed == 0 && inputs.progress() != null) {
            // the progress may live in another cluster (an exactly-once mirror's, in the target): said at once too,
            // not after the reader's 30 s
            probed = probe.verifyFor("sluice lag", inputs.progress().clusterProperties(), err);
        }
        if (probed != 0) {
            return probed;
        }
        int reports = watch ? (count == null ? Integer.MAX_VALUE : count) : 1;
        boolean redraw = watch && terminal;
        try (LagReport report = new LagReport(inputs, clock, within)) {
            report.sample();
            for (int shown = 0; shown < reports; shown++) {
                Thread.sleep(interval.toMillis());
                LagView view = report.sample();
                if (redraw) {
                    out.print("\u001b[H\u001b[2J");
                } else if (shown > 0) {
                    out.println();
                }
                out.println("Group " + inputs.group() + " at " + view.at().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
                out.print(report.render(view));
                out.flush();
            }
        } catch (IllegalStateException e) {
            err.println("sluice lag: " + e.getMessage());
            err.flush();
            return CommandLine.ExitCode.SOFTWARE;
        }
        return CommandLine.ExitCode.OK;
    }

    /** The pipeline's inputs, if any, with the flags over them. */
    LagInputs inputs() throws Exception {
        LagInputs base = null;
        if (pipeline != null) {
            if (pipelines == null) {
                throw usage("this command takes no pipeline file here; pass --bootstrap-servers, --group and --topic");
            }
            base = pipelines.read(pipeline);
        }
        Map<String, Object> props = kafka.clientProperties(base == null ? Map.of() : base.clientProperties());
        String g = groupFlags.group(base == null ? null : base.group());
        List<String> t = topicFlags.topics(base == null ? List.of() : base.topics());
        List<URI> urls = metricsUrls != null ? metricsUrls : base == null ? List.of() : base.metricsUrls();
        if (g == null) {
            throw usage("--group is required: the consumer group whose lag to show");
        }
        if (t.isEmpty()) {
            throw usage("--topic is required: at least one topic of the group");
        }
        if (props.get("bootstrap.servers") == null) {
            throw usage("--bootstrap-servers is required: where the Kafka brokers are, e.g. broker1:9092");
        }
        try {
            return new LagInputs(g, t, props, urls, base == null ? null : base.progress());
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
