package io.sluice.cli.mirror;

import io.sluice.cli.run.ShutdownSignals;
import io.sluice.cli.CliContext;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.probe.ClusterRoles;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.cli.progress.ProgressOptions;
import io.sluice.cli.status.MetricsOptions;
import io.sluice.mirror.MirrorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code sluice mirror MIRROR.yaml}: copies topics between clusters until stopped, or to the end with --until-end. */
@Command(name = "mirror", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a mirror file (docs/mirror-configuration.md): copies its topics from the source cluster "
                + "to the target, partition p to partition p, exactly once by default. Ctrl-C or SIGTERM drains "
                + "cleanly (the copies under way are committed; while the target does not answer, at once, and the "
                + "next start copies them) and exits 0 (1 when records were lost at the source before they were "
                + "copied: a loud gap, docs/mirror.md); a second Ctrl-C stops at once.",
            "Instances started with the same mirror.name share the partitions. `sluice validate`, `verify` and `lag` "
                    + "take a mirror file too."})
public final class MirrorCommand implements Callable<Integer> {

    @Parameters(paramLabel = "MIRROR.yaml", description = "The mirror file (docs/mirror-configuration.md).")
    Path file;

    @Option(names = "--until-end", description = "Stop once every partition is copied up to the end offsets seen at "
            + "start, instead of running on.")
    boolean untilEnd;

    @Option(names = "--groups", description = "Instead of running: show, per translated group (mirror.groups) and "
            + "partition, the source offset, its exact target offset, the target group's offset, and how many records a "
            + "consumer failing over now would read again (the goal: 0).")
    boolean groups;

    @Mixin
    MetricsOptions metrics;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    MirrorCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        if (groups && untilEnd) { // --groups shows and exits: an --until-end beside it was silently ignored
            throw new CommandLine.ParameterException(spec.commandLine(), "--groups shows the groups' translation and "
                    + "runs nothing, so --until-end does not go with it: give one or the other");
        }
        // a signal before the run's own handlers (probes, claims) says what it stopped
        ShutdownSignals starting = ShutdownSignals.whileStarting("sluice mirror", context.console()::say);
        try {
            MirrorFile mirror = MirrorFile.load(file, context.variables());
            // both clusters, for the report too: a target that does not answer was said after the reader's 30 s
            int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyClusters("sluice mirror",
                    ClusterRoles.of(mirror.config()), spec.commandLine().getErr());
            if (probed != 0) {
                return probed;
            }
            if (groups) {
                return GroupsReport.show(mirror.config(), context.console());
            }
            MirrorConfig config = mirror.config().toBuilder().untilEnd(untilEnd).build();
            return new MirrorRun(mirror, config, metrics.over(mirror.metrics()), context.console())
                    .run(progress.every()).exitStatus();
        } finally {
            starting.close();
        }
    }
}
