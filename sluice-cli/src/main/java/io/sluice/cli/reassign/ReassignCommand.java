package io.sluice.cli.reassign;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign}: moves partition replicas between the brokers of one cluster (docs/reassign.md).
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "reassign", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Moves partition replicas between brokers without flooding disks, forgetting throttles or "
                + "losing track: `plan` writes the fewest moves for a goal to a file to review, with each broker's "
                + "disk now, at peak and after; `execute` runs it in batches under throttles with a journal; "
                + "`resume` and `cancel` take the journal after a kill; `check` finds what moves left behind; "
                + "`who-reads` lists the consumer groups of topics, to warn their owners."},
        footer = {"", "Exit status: 0 done (check: nothing left behind), 1 the cluster failed or refused (a plan over "
                + "the disk headroom, a stale plan; check: leftovers found and not fixed), 2 bad usage."},
        subcommands = {
            PlanCommand.class,
            ExecuteCommand.class,
            ResumeCommand.class,
            CancelCommand.class,
            CheckCommand.class,
            WhoReadsCommand.class
        })
public final class ReassignCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** Without a subcommand: bad usage (exit status 2), with the list of subcommands. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name what to do: plan, execute, resume, "
                + "cancel, check or who-reads");
    }
}
