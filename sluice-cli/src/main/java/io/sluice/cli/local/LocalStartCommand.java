package io.sluice.cli.local;

import io.sluice.cli.console.Launcher;
import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.console.Console;
import io.sluice.cli.quickstart.QuickstartFolder;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.KafkaNode;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice local start}: the broker a quick start left behind, on its data and port, until Ctrl-C or SIGTERM,
 * which stop it cleanly; so that the quick start's pipeline file (and {@code verify}, {@code lag}, {@code run} on it)
 * works after the quick start has ended (issue 17).
 *
 * <p>Threading: the main thread; the signal handlers only count the stop request down (or halt).
 */
@Command(name = "start", mixinStandardHelpOptions = true,
        description = {"Starts the local Kafka broker of a quick start again, on its data and port, so that its "
                + "pipeline file works again (sluice verify, sluice lag, sluice run). Runs until Ctrl-C or SIGTERM, "
                + "which stop the broker cleanly; its data stays."})
public final class LocalStartCommand implements Callable<Integer> {

    @Option(names = "--dir", paramLabel = "PATH", defaultValue = "sluice-quickstart",
            description = "The quick start's folder (default ${DEFAULT-VALUE}).")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    LocalStartCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        Path folder = dir.toAbsolutePath().normalize();
        if (!QuickstartFolder.isQuickstart(folder)) {
            throw new CommandLine.ParameterException(spec.commandLine(), folder + " is not a quick start's folder; "
                    + "run " + Launcher.command() + " quickstart first, or name its folder with --dir");
        }
        if (QuickstartFolder.brokerRunning(folder)) {
            // what was asked is the case: no usage text and exit 2, as before, for a start that is not needed
            context.console().result("the quick start's broker of " + folder + " is running already (in another "
                    + "terminal?): its pipeline works as it is; Ctrl-C there stops it");
            return ExitStatus.OK;
        }
        Console console = context.console();
        console.result("starting the quick start's Kafka broker (data in " + QuickstartFolder.kafka(folder) + ")");
        CountDownLatch stop = new CountDownLatch(1);
        try (KafkaCluster kafka = QuickstartFolder.reopenBroker(folder)) {
            KafkaNode node = kafka.nodes().get(0);
            ShutdownSignals signals = ShutdownSignals.install(stop::countDown, () -> {
                node.kill(); // a second Ctrl-C: no controlled shutdown; the data recovers at the next start
                Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
            });
            try {
                Path pipeline = folder.resolve("pipeline.yaml");
                console.result("ready at " + kafka.bootstrapServers() + "; the quick start's pipeline works again, "
                        + "e.g. in another terminal:");
                console.result("  " + Launcher.command() + " verify " + pipeline);
                console.result("  " + Launcher.command() + " lag " + pipeline);
                console.result("Ctrl-C stops the broker; its data stays.");
                while (!stop.await(1, TimeUnit.SECONDS)) {
                    if (!node.isRunning()) {
                        console.say("sluice: the broker stopped by itself; the end of its log ("
                                + node.logFile() + "):\n" + node.logTail());
                        return ExitStatus.FAILURE;
                    }
                }
                console.result("stopping the broker");
            } finally {
                signals.close();
            }
        }
        console.result("stopped; start it again with " + Launcher.command() + " local start --dir " + folder);
        return ExitStatus.OK;
    }
}
