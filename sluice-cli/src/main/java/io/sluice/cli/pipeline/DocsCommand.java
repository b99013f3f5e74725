package io.sluice.cli.pipeline;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code sluice docs}: prints the pipeline reference, {@code docs/configuration.md}. */
@Command(name = "docs", mixinStandardHelpOptions = true,
        description = "Prints the reference of pipeline files (Markdown), generated from the code: "
                + "./sluice docs > docs/configuration.md")
public final class DocsCommand implements Callable<Integer> {

    private final CliContext context;

    DocsCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        context.console().out().print(ConfigurationReference.markdown());
        context.console().out().flush();
        return ExitStatus.OK;
    }
}
