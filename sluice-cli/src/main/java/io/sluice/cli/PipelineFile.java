package io.sluice.cli;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.Pipelines;
import java.nio.file.Path;
import picocli.CommandLine.Parameters;

/**
 * The pipeline file argument, for every command that reads one ({@code @Mixin PipelineFile pipeline;}).
 *
 * <p>Threading: set by picocli, then read on the command's thread.
 */
public final class PipelineFile {

    @Parameters(paramLabel = "PIPELINE.yaml", description = "The pipeline file (docs/configuration.md).")
    Path file;

    public Path path() {
        return file;
    }

    /** Reads and checks the file, with the variables of the command's context. */
    public Pipeline load(CliContext context) throws ConfigException {
        return Pipelines.load(file, context.variables());
    }
}
