package io.sluice.cli.quickstart;

import io.sluice.audit.Audit;
import io.sluice.audit.AuditReport;
import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.console.AuditTicker;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Launcher;
import io.sluice.cli.console.Logging;
import io.sluice.cli.console.Units;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.cli.pipeline.Pipelines;
import io.sluice.cli.run.EngineRun;
import io.sluice.cli.run.PipelineRun;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.KafkaNode;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.StorageBackend;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code sluice quickstart}: a local broker, a realistic clickstream, and its archive as Parquet + zstd by date, hour
 * and event type, audited and summed up, with a query to paste into DuckDB. Needs nothing but a JDK.
 *
 * <p>Threading: the main thread.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a local Kafka broker, produces realistic clickstream events (timestamps over the last "
                + "48 hours by default) into a 4-partition topic, archives them exactly once into Parquet + zstd files "
                + "by date, hour and event type with live progress, audits the archive (sluice verify), and prints a "
                + "summary and a DuckDB query over the files."})
public final class QuickstartCommand implements Callable<Integer> {

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
        console.result(String.format(Locale.ROOT, "Sluice quick start: %,d clickstream events through a local Kafka "
                + "broker into Parquet + zstd files, in %s", events, folder));

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
                    Units.bytes(produced.jsonBytes()), produced.elapsed().toNanos() / 1e9));

            Path pipelineFile = QuickstartPipeline.write(folder, kafka.bootstrapServers(), TOPIC);
            Pipeline pipeline = Pipelines.load(pipelineFile);
            console.result("[3/4] archiving by date, hour and event type, exactly once (the pipeline: " + pipelineFile
                    + ")");
            // every event is in the topic already: the run ends by itself at the end offsets it finds
            EngineRun.Outcome outcome = new PipelineRun(pipeline, console)
                    .progress("archiving", Duration.ofSeconds(5))
                    .engine(engine -> engine.untilEnd(true))
                    .run();
            if (outcome.exitStatus() != ExitStatus.OK) {
                return outcome.exitStatus();
            }
            console.result(String.format(Locale.ROOT, "      %,d records in %.1f s", outcome.last().records(),
                    outcome.elapsed().toNanos() / 1e9));

            console.result("[4/4] checking the archive against the topic, offset by offset (sluice verify "
                    + pipelineFile + ")");
            AuditReport audit;
            AuditTicker ticker = new AuditTicker(console, "      checking: ", Duration.ofSeconds(3));
            try (StorageBackend archive = PipelineParts.backend(pipeline)) {
                audit = Audit.run(PipelineParts.audit(pipeline, TOPIC, archive).progress(ticker).build());
            } finally {
                ticker.finish();
            }
            Path archive = Path.of(pipeline.sink().location().path());
            summary(console, produced, outcome, audit, ArchiveTally.of(archive.resolve(TOPIC)), archive);
            // the broker's data stays for a look; a graceful shutdown would only add seconds
            kafka.nodes().forEach(KafkaNode::kill);
            afterwards(console, folder, pipelineFile);
            return audit.exitStatus();
        }
    }

    /**
     * How the files' size compares with the events'. A small run spreads few events over many folders, and then each
     * Parquet file's header, footer and column statistics outweigh its rows: say so rather than "0.5x smaller".
     */
    static String compression(long jsonBytes, long fileBytes) {
        if (fileBytes == 0 || jsonBytes == 0) {
            return "nothing written";
        }
        double ratio = (double) jsonBytes / fileBytes;
        if (ratio >= 1) {
            return String.format(Locale.ROOT, "%.1fx smaller", ratio);
        }
        return String.format(Locale.ROOT, "%.1fx larger: with this few events per folder each file's header, footer "
                + "and statistics outweigh its rows (try --events 1000000)", 1 / ratio);
    }

    private static void summary(Console console, EventProducer.Result produced, EngineRun.Outcome outcome,
            AuditReport audit, ArchiveTally tally, Path archive) {
        double seconds = outcome.elapsed().toNanos() / 1e9;
        console.result("      " + audit.summary());
        console.result("");
        console.result("Summary");
        console.result(String.format(Locale.ROOT, "  records     %,d of %,d exactly once in the files%s",
                audit.exactlyOnce(), produced.events(), audit.clean() ? "" : ": NOT EXACT, see `sluice verify "
                        + "pipeline.yaml`"));
        console.result(String.format(Locale.ROOT, "  files       %,d in %,d folders under %s", tally.files(),
                tally.folders(), archive.resolve(TOPIC)));
        console.result(String.format(Locale.ROOT, "  bytes       %s of JSON events in %s of Parquet: %s",
                Units.bytes(produced.jsonBytes()), Units.bytes(tally.bytes()),
                compression(produced.jsonBytes(), tally.bytes())));
        console.result(String.format(Locale.ROOT, "  throughput  %,.0f records/s, %s/s of JSON (start, catch-up, "
                + "final commit)", outcome.last().records() / seconds, Units.bytes(produced.jsonBytes() / seconds)));
        console.result("");
        console.result("Query the files with DuckDB (https://duckdb.org): revenue per day, reading only the purchase "
                + "folders:");
        console.result("  duckdb -c \"" + QuickstartPipeline.revenueQuery(archive.resolve(TOPIC)) + "\"");
    }

    /**
     * The broker stops with the quick start, and the pipeline file names it: without it {@code verify} and
     * {@code lag} find nothing listening (issue 17), so say how to bring it back.
     */
    private static void afterwards(Console console, Path folder, Path pipelineFile) {
        console.result("");
        console.result("The broker stopped with the quick start; its data and the pipeline file stay in " + folder
                + ". To use them again, start the broker on the same data and port (Ctrl-C stops it):");
        console.result("  " + Launcher.command() + " local start --dir " + folder);
        console.result("and, in another terminal:");
        console.result("  " + Launcher.command() + " verify " + pipelineFile);
        console.result("  " + Launcher.command() + " lag " + pipelineFile);
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
