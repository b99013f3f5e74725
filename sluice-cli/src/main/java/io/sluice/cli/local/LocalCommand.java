package io.sluice.cli.local;

import io.sluice.cli.ExitStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code sluice local}: the group of commands for the local servers; alone, it prints its usage.
 *
 * <p>Threading: the main thread.
 */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = {"The local Kafka broker of a quick start, started again on its data."},
        subcommands = {LocalStartCommand.class})
public final class LocalCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitStatus.USAGE;
    }
}
