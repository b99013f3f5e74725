package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.execute.RestoreIncompleteException;
import io.sluice.reassign.execute.ExecuteOptions;
import io.sluice.reassign.execute.ReassignmentRun;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.journal.JournalMirror;
import io.sluice.reassign.journal.RunLimits;
import io.sluice.reassign.plan.DiskUse;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign resume JOURNAL}: finishes the run a journal holds, after the tool was killed.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Finishes the run a journal holds (after a kill, a crash, a lost connection): sets its throttles "
                + "and guards again as journaled, waits for the moves under way, starts the rest, and restores every "
                + "config the run changed.")
final class ResumeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JOURNAL", description = "The journal of the run (the plan file's name + .journal).")
    Path journalFile;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    RefusedFlags.Topic refusedTopic;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Mixin
    RunFlags run;

    @Option(names = "--max-disk-use", paramLabel = "SHARE", defaultValue = "80%", converter = DiskShareValue.class,
            description = "No batch starts whose copies would take a log dir past this share of its disk, with the "
                    + "disks as they are then (default: the run's, as journaled; else ${DEFAULT-VALUE}).")
    double maxDiskUse;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    ResumeCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        refusedTopic.refuse("the moves of the run its journal holds");
        refusedGroup.refuse("the moves of the run its journal holds");
        if (!Files.exists(journalFile)) {
            throw new RunFailure("no journal " + journalFile);
        }
        if (Journal.isOver(Journal.read(journalFile))) {
            // said once, not followed by the line of a run that just completed
            context.console().say("the journal " + journalFile + " says this run is over (finished or cancelled); "
                    + "nothing to do");
            return ExitStatus.OK;
        }
        // the configs come from the journal, as the killed run set them; so do its limits, unless given here
        Optional<RunLimits> journaled = Journal.limits(Journal.read(journalFile));
        CommandLine.ParseResult given = spec.commandLine().getParseResult();
        int batchSize = given.hasMatchedOption("--batch-size") ? run.batchSize
                : journaled.map(RunLimits::batchSize).orElse(run.batchSize);
        double diskShare = given.hasMatchedOption("--max-disk-use") ? maxDiskUse
                : journaled.map(RunLimits::maxDiskUse).orElse(maxDiskUse);
        ExecuteOptions options = run.options(spec, 0, false, 1, diskShare, batchSize);
        journaled.ifPresent(limits -> context.console().say("resuming with --batch-size " + batchSize
                + " and --max-disk-use " + DiskUse.percent(diskShare) + (batchSize == limits.batchSize()
                        && diskShare == limits.maxDiskUse() ? ", as the run was started" : " (the run was started "
                        + "with --batch-size " + limits.batchSize() + " and --max-disk-use "
                        + DiskUse.percent(limits.maxDiskUse()) + ")")));
        ReassignmentPlan plan = JournaledRun.planOf(journalFile);
        return ClusterConnection.with(kafka, spec, admin -> {
            JournaledRun.requireThisCluster(journalFile, plan, admin, "resume");
            ProgressView view = new ProgressView(context.console(), run.progressEvery);
            try (ClusterJournal topic = JournalTopic.of(admin, kafka, plan);
                    Journal journal = Journal.open(journalFile, run.journalTopic ? topic : JournalMirror.NONE);
                    SignalStop stop = SignalStop.install(context.console(), journalFile)) {
                new ReassignmentRun(admin, journal, options, view).run(journal.plan().get());
            } catch (RestoreIncompleteException e) {
                throw new RunFailure(e.getMessage(), e); // the moves are done: "stopped midway" would mislead
            } catch (ClusterException e) {
                throw new RunFailure(e.getMessage() + ". " + ResumeHint.of(journalFile), e);
            }
            view.finish("done: the run of " + journalFile + " is complete and every config it changed is restored");
            return ExitStatus.OK;
        });
    }
}
