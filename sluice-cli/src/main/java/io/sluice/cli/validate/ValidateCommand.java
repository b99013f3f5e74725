package io.sluice.cli.validate;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.PipelineFile;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.cli.pipeline.Pipeline;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code sluice validate FILE [--connect]}: checks a pipeline, mirror or merge file without running it. */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = {"Checks a pipeline, mirror or merge file without running it: unknown keys, wrong types and values, missing "
                + "settings, each with file:line:column. Exit status 0 when valid, 2 when not, 1 when --connect "
                + "finds something missing or not answering."})
public final class ValidateCommand implements Callable<Integer> {

    @Mixin
    PipelineFile pipelineFile;

    @Option(names = "--connect", description = "Also check that the brokers and the storage answer with the "
            + "pipeline's credentials, and that its topics exist (exit status 1 if not); for a merge, also what "
            + "starting it would refuse (partition counts, the output topic).")
    boolean connect;

    private final CliContext context;

    ValidateCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        if (MergeFile.isMerge(pipelineFile.path())) {
            MergeFile merge = MergeFile.load(pipelineFile.path(), context.variables());
            context.console().result(pipelineFile.path() + ": valid: a merge of " + merge.describe());
            return !connect || new MergeConnectionCheck(context.console()).check(merge.config()) ? ExitStatus.OK
                    : ExitStatus.FAILURE;
        }
        if (MirrorFile.isMirror(pipelineFile.path())) {
            MirrorFile mirror = MirrorFile.load(pipelineFile.path(), context.variables());
            context.console().result(pipelineFile.path() + ": valid: a mirror of " + mirror.describe());
            return !connect || new MirrorConnectionCheck(context.console()).check(mirror.config()) ? ExitStatus.OK
                    : ExitStatus.FAILURE;
        }
        Pipeline pipeline = pipelineFile.load(context);
        context.console().result(pipelineFile.path() + ": valid: " + pipeline.describe());
        for (ConfigProblem pending : pipeline.pending()) {
            context.console().result("note: " + pending + "; `run` refuses it until then");
        }
        if (!connect) {
            return ExitStatus.OK;
        }
        return new ConnectionCheck(context).check(pipeline) ? ExitStatus.OK : ExitStatus.FAILURE;
    }
}
