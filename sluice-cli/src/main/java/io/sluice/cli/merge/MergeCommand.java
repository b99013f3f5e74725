package io.sluice.cli.merge;

import io.sluice.cli.CliContext;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.progress.ProgressOptions;
import io.sluice.cli.status.MetricsOptions;
import io.sluice.merge.MergeConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice merge MERGE.yaml}: merges the inputs into the output until stopped, or to their ends with --until-end. */
@Command(name = "merge", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a merge file (docs/merge-configuration.md): partition p of every input topic, each on its "
                + "own cluster, merged by event time into partition p of the output topic, exactly once (or at least "
                + "once, with merge.delivery) and in the same order on every run (docs/merge.md). Ctrl-C or SIGTERM drains cleanly (each partition commits "
                + "what it merged) and exits 0; a second Ctrl-C stops at once.",
            "Instances started with the same merge.name share the output partitions. `sluice validate` and `lag` "
                    + "take a merge file too."})
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

    private final CliContext context;

    MergeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        MergeFile merge = MergeFile.load(file, context.variables());
        MergeConfig config = merge.config().toBuilder().untilEnd(untilEnd).build();
        return new MergeRun(merge, config, metrics.over(merge.metrics()), context.console()).run(progress.every());
    }
}
