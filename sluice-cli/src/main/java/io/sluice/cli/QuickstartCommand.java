package io.sluice.cli;

import io.sluice.cli.config.Sizes;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Logging;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.Pipelines;
import io.sluice.cli.quickstart.ArchiveTally;
import io.sluice.cli.quickstart.ClickstreamEvents;
import io.sluice.cli.quickstart.EventProducer;
import io.sluice.cli.quickstart.QuickstartFolder;
import io.sluice.cli.quickstart.QuickstartFormat;
import io.sluice.cli.quickstart.QuickstartPipeline;
import io.sluice.cli.run.PipelineRun;
import io.sluice.core.PartitionStats;
import io.sluice.testkit.kafka.KafkaCluster;
import io.sluice.testkit.kafka.KafkaNode;
import io.sluice.testkit.kafka.Listener;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice quickstart}: a local broker, a realistic clickstream, and its archive by date, hour and event type,
 * checked and summed up, with a query to paste into DuckDB. Needs nothing but a JDK.
 *
 * <p>Threading: the main thread.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local Kafka broker, produces realistic clickstream events (timestamps over the last "
                + "48 hours by default) into a 4-partition topic, archives them exactly once into files by date, hour and event "
                + "type with live progress, checks that every offset landed once, and prints a summary and a DuckDB "
                + "query over the files."})
final class QuickstartCommand implements Callable<Integer> {

    static final String TOPIC = "clicks";
    static final int PARTITIONS = 4;

    @Option(names = "--events", paramLabel = "N", defaultValue = "1000000",
            description = "How many events to produce and archive (default ${DEFAULT-VALUE}).")
    long events;

    @Option(names = "--hours", paramLabel = "H", defaultValue = "48",
            description = "The events' times spread over the last H hours (default ${DEFAULT-VALUE}): one folder per "
                    + "hour and event type.")
    int hours;

    @Option(names = "--dir", paramLabel = "PATH", defaultValue = "sluice-quickstart",
            description = "The folder for the broker's data, the pipeline file and the archive (default "
                    + "${DEFAULT-VALUE}); it must be empty or an earlier quick start's, which is replaced.")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    QuickstartCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        if (events < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--events must be at least 1, not " + events);
        }
        if (hours < 1 || hours > 24 * 365) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hours must be 1 to 8760, not " + hours);
        }
        Path folder = dir.toAbsolutePath().normalize();
        QuickstartFolder.prepare(folder).ifPresent(problem -> {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        });
        Console console = context.console();
        Logging.quiet("sluice.run");
        QuickstartFormat format = QuickstartFormat.CURRENT;
        console.result(String.format(Locale.ROOT, "Sluice quick start: %,d clickstream events through a local Kafka "
                + "broker into %s files, in %s", events, format.label, folder));

        console.result("[1/4] starting a Kafka broker (one node, KRaft; data in " + QuickstartFolder.kafka(folder)
                + ")");
        long t = System.nanoTime();
        try (KafkaCluster kafka = QuickstartFolder.startBroker(folder)) {
            console.result(String.format(Locale.ROOT, "      ready in %.1f s at %s", seconds(t), kafka.bootstrapServers()));
            kafka.createTopic(TOPIC, PARTITIONS);

            console.result(String.format(Locale.ROOT, "[2/4] producing %,d events over the last %d hours into topic "
                    + "%s (%d partitions)", events, hours, TOPIC, PARTITIONS));
            EventProducer.Result produced = EventProducer.produce(kafka.clientProperties(Listener.PLAINTEXT), TOPIC,
                    new ClickstreamEvents(5, events, Instant.now(), Duration.ofHours(hours)), events, console);
            console.result(String.format(Locale.ROOT, "      %,d events (%s of JSON) in %.1f s", produced.events(),
                    Sizes.human(produced.jsonBytes()), produced.elapsed().toNanos() / 1e9));

            Path pipelineFile = QuickstartPipeline.write(folder, kafka.bootstrapServers(), TOPIC, format);
            Pipeline pipeline = Pipelines.load(pipelineFile);
            console.result("[3/4] archiving by date, hour and event type, exactly once (the pipeline: " + pipelineFile
                    + ")");
            PipelineRun.Outcome outcome = new PipelineRun(pipeline, List.of(), console, "archiving",
                    Duration.ofSeconds(5))
                    .until(running -> reached(running.engine().partitions(), produced.endOffsets()),
                            "every event is archived")
                    .run();
            if (outcome.exitStatus() != ExitStatus.OK) {
                return outcome.exitStatus();
            }
            console.result(String.format(Locale.ROOT, "      %,d records in %.1f s", outcome.last().records(),
                    outcome.elapsed().toNanos() / 1e9));

            console.result("[4/4] reading the files back");
            Path archive = Path.of(pipeline.sink().location().path());
            ArchiveTally tally = ArchiveTally.of(archive, TOPIC, produced.endOffsets());
            summary(console, produced, outcome, tally, archive, format);
            // the broker's data stays for a look; a graceful shutdown would only add seconds
            kafka.nodes().forEach(KafkaNode::kill);
            return tally.exact() ? ExitStatus.OK : ExitStatus.FAILURE;
        }
    }

    /** Whether every partition's committable offset has reached the end the producer left. */
    private static boolean reached(List<PartitionStats> partitions, Map<Integer, Long> ends) {
        long done = partitions.stream().filter(p -> p.watermark() >= ends.getOrDefault(p.partition().partition(), 0L))
                .count();
        return partitions.size() == ends.size() && done == ends.size();
    }

    private static void summary(Console console, EventProducer.Result produced, PipelineRun.Outcome outcome,
            ArchiveTally tally, Path archive, QuickstartFormat format) {
        double seconds = outcome.elapsed().toNanos() / 1e9;
        console.result("");
        console.result("Summary");
        console.result(String.format(Locale.ROOT, "  records     %,d in the files: %s", tally.rows(), tally.exact()
                ? "every offset of " + TOPIC + " exactly once"
                : String.format(Locale.ROOT, "NOT EXACT: %,d missing, %,d duplicated, %,d unreadable files",
                        tally.missing(), tally.duplicates(), tally.unreadable())));
        console.result(String.format(Locale.ROOT, "  files       %,d in %,d folders under %s", tally.files(),
                tally.folders(), archive.resolve(TOPIC)));
        console.result(String.format(Locale.ROOT, "  bytes       %s of JSON events in %s of files: %.1fx smaller",
                Sizes.human(produced.jsonBytes()), Sizes.human(tally.bytes()),
                tally.bytes() == 0 ? 0.0 : (double) produced.jsonBytes() / tally.bytes()));
        console.result(String.format(Locale.ROOT, "  throughput  %,.0f records/s, %s/s of JSON (start, catch-up, "
                + "final commit)", outcome.last().records() / seconds, Sizes.human(produced.jsonBytes() / seconds)));
        console.result("");
        console.result("Query the files with DuckDB (https://duckdb.org): revenue per day, reading only the purchase "
                + "folders:");
        console.result("  duckdb -c \"SELECT dt, count(*) AS purchases, round(sum(price * quantity), 2) AS revenue "
                + "FROM " + format.duckdbReader + "('" + archive.resolve(TOPIC) + "/*/*/type=purchase/*"
                + format.extension + "', hive_partitioning = true) GROUP BY dt ORDER BY dt\"");
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
