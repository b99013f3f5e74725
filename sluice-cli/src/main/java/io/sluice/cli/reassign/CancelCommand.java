package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.reassign.execute.Cancellation;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign cancel JOURNAL}: stops a run's moves under way and restores its configs.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "cancel", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Cancels the moves of a journal's run that are under way (their partitions keep the replicas "
                + "they had; completed moves stay) and restores every config the run changed (and forgets them in "
                + "the journal topic).")
final class CancelCommand implements Callable<Integer> {

    @Parameters(paramLabel = "JOURNAL", description = "The journal of the run.")
    Path journalFile;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    RefusedFlags.Topic refusedTopic;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    CancelCommand(CliContext context) {
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
                    + "nothing to cancel");
            return ExitStatus.OK;
        }
        ReassignmentPlan plan = JournaledRun.planOf(journalFile);
        return ClusterConnection.with(kafka, spec, admin -> {
            JournaledRun.requireThisCluster(journalFile, plan, admin, "cancel");
            ProgressView view = new ProgressView(context.console(), Duration.ofSeconds(30));
            try (ClusterJournal topic = new ClusterJournal(admin, kafka.clientProperties(Map.of()), Set.of());
                    Journal journal = Journal.open(journalFile, topic.restoresOnly())) {
                new Cancellation(admin, journal, view).cancel(Duration.ofMillis(500));
            }
            view.finish("cancelled: no move of " + journalFile + " is under way and every config it changed is "
                    + "restored");
            return ExitStatus.OK;
        });
    }
}
