package io.sluice.cli.pipeline;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice docs}: prints the pipeline reference, {@code docs/configuration.md}. */
@Command(name = "docs", mixinStandardHelpOptions = true,
        description = "Prints the reference of pipeline files (Markdown), generated from the code: "
                + "./sluice docs > docs/configuration.md")
public final class DocsCommand implements Callable<Integer> {

    private final CliContext context;

    DocsCommand(CliContext context) {
        this.context = context;
    }

    @Option(names = "--mirror", description = "Print the reference of mirror files instead: "
            + "./sluice docs --mirror > docs/mirror-configuration.md")
    boolean mirror;

    @Option(names = "--merge", description = "Print the reference of merge files instead: "
            + "./sluice docs --merge > docs/merge-configuration.md")
    boolean merge;

    @Override
    public Integer call() {
        context.console().out().print(merge ? ConfigurationReference.mergeMarkdown()
                : mirror ? ConfigurationReference.mirrorMarkdown() : ConfigurationReference.markdown());
        context.console().out().flush();
        return ExitStatus.OK;
    }
}
