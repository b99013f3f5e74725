package io.sluice.cli.merge;

import io.sluice.cli.run.ShutdownSignals;
import io.sluice.cli.CliContext;
import io.sluice.cli.RunFailure;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.probe.ClusterRoles;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.progress.ProgressOptions;
import io.sluice.cli.status.MetricsOptions;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.state.CommittedStates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice merge MERGE.yaml}: merges the inputs into the output until stopped, or to their ends with --until-end. */
@Command(name = "merge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a merge file (docs/merge-configuration.md): partition p of every input topic, each on its "
                + "own cluster, merged by event time into partition p of the output topic, exactly once (or at least "
                + "once, with merge.delivery) and in the same order on every run (docs/merge.md). Ctrl-C or SIGTERM drains cleanly (each partition commits "
                + "what it merged) and exits 0; a second Ctrl-C stops at once.",
            "Instances started with the same merge.name share the output partitions. `sluice validate`, `lag` and "
                    + "`verify` take a merge file too."})
public final class MergeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "MERGE.yaml", description = "The merge file (docs/merge-configuration.md).")
    Path file;

    @Option(names = "--until-end", description = "Stop once every input partition is merged up to its end and "
            + "committed, instead of running on.")
    boolean untilEnd;

    @Mixin
    MetricsOptions metrics;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    MergeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        // a signal before the run's own handlers (probes, claims) says what it stopped
        ShutdownSignals starting = ShutdownSignals.whileStarting("sluice merge", context.console()::say);
        try {
            MergeFile merge = MergeFile.load(file, context.variables());
            int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyClusters("sluice merge",
                    ClusterRoles.of(merge.config()), spec.commandLine().getErr());
            if (probed != 0) {
                return probed;
            }
            MergeConfig config = merge.config().toBuilder().untilEnd(untilEnd).build();
            // what the claims would refuse, refused before the merge starts: a reordered input list stopped a running
            // merge with "each output partition commits what it merged ... a restart resumes" (a new user's run)
            List<String> refused = CommittedStates.problems(config, Duration.ofSeconds(30));
            if (!refused.isEmpty()) {
                throw new RunFailure("merge " + config.name() + " cannot start: " + String.join("; ", refused)
                        + ". Nothing was merged");
            }
            return new MergeRun(merge, config, metrics.over(merge.metrics()), context.console()).run(progress.every());
        } finally {
            starting.close();
        }
    }
}
