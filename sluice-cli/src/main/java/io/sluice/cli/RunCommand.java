package io.sluice.cli;

import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.run.PipelineRun;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice run PIPELINE.yaml}: archives until stopped. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs a pipeline: archives its topics until stopped. Ctrl-C or SIGTERM drains cleanly (records "
                + "being written finish, files are committed and published) and exits 0; a second Ctrl-C stops at "
                + "once and lists what was not committed.",
            "Instances started with the same source.group share the partitions."})
final class RunCommand implements Callable<Integer> {

    @Mixin
    PipelineFile pipelineFile;

    @Option(names = "--progress-every", paramLabel = "DURATION", defaultValue = "30s",
            converter = DurationConverter.class,
            description = "Without a terminal, log a progress line this often (default ${DEFAULT-VALUE}); on a "
                    + "terminal one live line shows progress.")
    Duration progressEvery;

    private final CliContext context;

    RunCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        Pipeline pipeline = pipelineFile.load(context);
        return new PipelineRun(pipeline, context.runExtensions(), context.console(), "archiving", progressEvery)
                .run().exitStatus();
    }
}
