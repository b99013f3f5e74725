package io.sluice.cli.run;

import io.sluice.cli.CliContext;
import io.sluice.cli.PipelineFile;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.progress.ProgressOptions;
import io.sluice.cli.status.MetricsOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code sluice run PIPELINE.yaml}: archives until stopped, or until the end with {@code --until-end}. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a pipeline: archives its topics until stopped. Ctrl-C or SIGTERM drains cleanly (records "
                + "being written finish, files are committed and published) and exits 0; a second Ctrl-C stops at "
                + "once and lists what was not committed.",
            "Instances started with the same source.group share the partitions. Before any client is created, each "
                    + "bootstrap address is probed: a port that speaks another protocol than the pipeline's tls and "
                    + "sasl sections say is reported at once (exit status 2)."})
public final class RunCommand implements Callable<Integer> {

    @Mixin
    PipelineFile pipelineFile;

    @Mixin
    BoundedRunOptions bounds;

    @Mixin
    MetricsOptions metrics;

    @Mixin
    ProgressOptions progress;

    private final CliContext context;

    RunCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        // a signal before the run's own handlers (probes, claims) says what it stopped
        ShutdownSignals starting = ShutdownSignals.whileStarting("sluice run", context.console()::say);
        try {
            Pipeline pipeline = pipelineFile.load(context);
            return new PipelineRun(pipeline, context.console())
                    .progress("archiving", progress.every())
                    .engine(bounds::applyTo)
                    .metrics(metrics.over(pipeline.metrics()))
                    .run().exitStatus();
        } finally {
            starting.close();
        }
    }
}
