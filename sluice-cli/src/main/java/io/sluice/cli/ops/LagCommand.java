package io.sluice.cli.ops;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

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

    @Parameters(arity = "0..1", paramLabel = "PIPELINE", description = "A pipeline file to take the brokers, group, "
            + "topics and client settings from.")
    Path pipeline;

    @Option(names = {"-b", "--bootstrap-servers"}, paramLabel = "HOST:PORT[,...]",
            description = "The brokers (bootstrap.servers).")
    String bootstrapServers;

    @Option(names = {"-g", "--group"}, paramLabel = "GROUP", description = "The consumer group.")
    String group;

    @Option(names = {"-t", "--topic"}, paramLabel = "TOPIC", split = ",", description = "A topic of the group; "
            + "repeat or separate with commas.")
    List<String> topics;

    @Option(names = {"-X", "--property"}, paramLabel = "KEY=VALUE", description = "A Kafka client setting, e.g. "
            + "security.protocol=SSL; repeatable. Values are never printed.")
    Map<String, String> properties;

    @Option(names = "--metrics-url", paramLabel = "URL", description = "A running instance's /metrics endpoint; "
            + "the processing rate then comes from its completed-records counter. Repeat for every instance.")
    List<URI> metricsUrls;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "5s", converter = DurationConverter.class,
            description = "Time between samples (default ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--within", paramLabel = "DURATION", defaultValue = "1h", converter = DurationConverter.class,
            description = "The catch-up target the verdict asks about (default ${DEFAULT-VALUE}).")
    Duration within;

    @Option(names = "--watch", description = "Keep sampling and refresh the report every interval.")
    boolean watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N reports.")
    Integer count;

    @Spec
    CommandSpec spec;

    private final Function<Path, LagInputs> pipelines;
    private final Clock clock;

    /** Without pipeline files: inputs come from flags only. */
    public LagCommand() {
        this(null);
    }

    /** @param pipelines reads the lag inputs out of a pipeline file, or null when files are not supported */
    public LagCommand(Function<Path, LagInputs> pipelines) {
        this.pipelines = pipelines;
        this.clock = Clock.systemUTC();
    }

    /** Picocli's converter for durations such as {@code 5s}, {@code 1h} or {@code PT30M}. */
    public static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                return Units.parseDuration(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LagInputs inputs = inputs();
        try {
            new BootstrapProbe(Duration.ofSeconds(5)).verify(inputs.clientProperties())
                    .forEach(w -> err.println("Warning: " + w));
        } catch (BootstrapProbe.BootstrapException e) {
            err.println(e.getMessage());
            err.flush();
            return CommandLine.ExitCode.USAGE;
        }
        int reports = watch ? (count == null ? Integer.MAX_VALUE : count) : 1;
        boolean redraw = watch && Terminal.isInteractive();
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
    LagInputs inputs() {
        LagInputs base = null;
        if (pipeline != null) {
            if (pipelines == null) {
                throw usage("this command takes no pipeline file here; pass --bootstrap-servers, --group and --topic");
            }
            base = pipelines.apply(pipeline);
        }
        Map<String, Object> props = new HashMap<>(base == null ? Map.of() : base.clientProperties());
        if (properties != null) {
            props.putAll(properties);
        }
        if (bootstrapServers != null) {
            props.put("bootstrap.servers", bootstrapServers);
        }
        String g = group != null ? group : base == null ? null : base.group();
        List<String> t = topics != null ? topics : base == null ? List.of() : base.topics();
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
        if (interval.isNegative() || interval.isZero()) {
            throw usage("--interval must be positive, not " + interval);
        }
        try {
            return new LagInputs(g, t, props, urls);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
