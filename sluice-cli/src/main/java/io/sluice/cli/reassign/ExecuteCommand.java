package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.cli.config.OptionValues;
import io.sluice.cli.console.Units;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.execute.RestoreIncompleteException;
import io.sluice.reassign.execute.Batches;
import io.sluice.reassign.execute.ExecuteOptions;
import io.sluice.reassign.execute.OtherWork;
import io.sluice.reassign.execute.PlanFreshness;
import io.sluice.reassign.execute.ReassignmentRun;
import io.sluice.reassign.execute.Reassignments;
import io.sluice.reassign.execute.Throttles;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.journal.JournalMirror;
import io.sluice.reassign.journal.JournalEntry;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.PlanFile;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign execute PLAN.json}: runs a plan under throttles with a journal.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "execute", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a plan from `plan`: sets the throttles (and the retention guard), moves the partitions "
                + "in batches with progress and time left, elects the new preferred leaders and restores every "
                + "config it changed. Every change is journaled first, in the journal file and in the cluster's topic "
                + "sluice-reassign-journal: after a kill, `resume JOURNAL` finishes and `cancel JOURNAL` undoes, and "
                + "`check --fix` restores the run's configs from any machine.")
final class ExecuteCommand implements Callable<Integer> {

    @Parameters(paramLabel = "PLAN.json", description = "The plan file `plan` wrote.")
    Path planFile;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    RefusedFlags.Topic refusedTopic;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Option(names = "--journal", paramLabel = "FILE", description = "The journal (default: the plan file's name + "
            + ".journal).")
    Path journal;

    @Option(names = "--throttle", paramLabel = "RATE", converter = OptionValues.RateValue.class,
            description = "Replication throttle per broker, e.g. 50MB/s (default: none).")
    Long throttle;

    @Option(names = "--catch-up-time", paramLabel = "DURATION", converter = OptionValues.DurationValue.class,
            description = "Instead of --throttle: the rate that copies each batch into its busiest broker in this "
                    + "time.")
    Duration catchUpTime;

    @Option(names = "--retention-guard", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Give topics pinned by future or missing timestamps, and topics moving to a log dir whose "
                    + "peak is within 10%% of --max-disk-use, a temporary retention.bytes of the topic's largest "
                    + "partition (one replica's bytes) x allowance until the move ends (default: on).")
    boolean retentionGuard;

    @Option(names = "--retention-allowance", paramLabel = "FACTOR", defaultValue = "1.10",
            description = "The guard's factor over the largest partition's size, at least 1: 1.10 lets each "
                    + "partition grow 10%% during the move (default ${DEFAULT-VALUE}).")
    double allowance;

    @Option(names = "--max-disk-use", paramLabel = "SHARE", defaultValue = "80%", converter = DiskShareValue.class,
            description = "No batch starts whose copies would take a log dir past this share of its disk, with the "
                    + "disks as they are then; the guard's tight moves are those near it (default ${DEFAULT-VALUE}).")
    double maxDiskUse;

    @Mixin
    RunFlags run;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    ExecuteCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        refusedTopic.refuse("the moves its plan names");
        refusedGroup.refuse("the moves its plan names");
        if (throttle != null && catchUpTime != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --throttle or --catch-up-time, not both");
        }
        ReassignmentPlan plan;
        try {
            plan = PlanFile.read(planFile);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path journalFile = journal != null ? journal : Path.of(planFile + ".journal");
        List<JournalEntry> journaled = Journal.read(journalFile);
        if (Journal.isOver(journaled)) {
            throw new RunFailure("the journal " + journalFile + " says this plan was executed to its end (or cancelled);"
                    + " plan again for another move");
        }
        if (!journaled.isEmpty()) {
            throw new RunFailure("the journal " + journalFile + " holds a run of this plan that did not end: `sluice "
                    + "reassign resume " + journalFile + "` finishes it, `cancel` undoes it");
        }
        long rate = throttle != null ? throttle
                : catchUpTime != null ? Throttles.forCatchUp(Batches.of(plan.moves(), run.batchSize),
                        Math.max(1, catchUpTime.toSeconds()))
                : 0;
        ExecuteOptions options = run.options(spec, rate, retentionGuard, allowance, maxDiskUse);
        return ClusterConnection.with(kafka, spec, admin -> {
            Optional<String> otherCluster = PlanFreshness.otherCluster(plan.cluster(), Reassignments.clusterId(admin));
            if (otherCluster.isPresent()) {
                throw new RunFailure(otherCluster.get() + ": plan again on this one");
            }
            Reassignments reassignments = new Reassignments(admin);
            Map<TopicPartition, List<Integer>> now = reassignments.replicas(
                    plan.moves().stream().map(PartitionMove::topic).collect(Collectors.toSet()));
            List<String> stale = new ArrayList<>(PlanFreshness.stale(plan.moves(), now, reassignments.targets(
                    plan.moves().stream().map(PartitionMove::topicPartition).collect(Collectors.toSet()))));
            stale.addAll(PlanFreshness.absentBrokers(plan.moves(), Reassignments.brokers(admin)));
            if (!stale.isEmpty()) {
                stale.forEach(line -> context.console().say("stale plan: " + line));
                throw new RunFailure("the cluster changed since the plan was made (or the plan is another "
                        + "cluster's); plan again");
            }
            if (plan.moves().isEmpty()) {
                context.console().say("nothing to move: " + planFile + " moves no partition (its topics were balanced "
                        + "when it was made); nothing was changed");
                return ExitStatus.OK;
            }
            if (plan.moves().stream().allMatch(m -> m.to().equals(now.get(m.topicPartition())))) {
                // it set and removed throttles and said "done: 5 partitions moved" for a plan executed before
                context.console().say("nothing to move: every partition of " + planFile + " already has the "
                        + "replicas the plan gives it (executed before?); nothing was changed");
                return ExitStatus.OK;
            }
            OtherWork.Found others = OtherWork.found(reassignments, new DynamicConfigs(admin), plan.moves());
            if (!others.blocking().isEmpty()) {
                others.blocking().forEach(line -> context.console().say("not alone: " + line));
                throw new RunFailure("another reassignment is under way: a run beside it would take its throttles for "
                        + "the values to restore (and leave them set, or remove them under its moves), and its disk "
                        + "check would not count its copies. Let its moves end, or run `sluice reassign resume` or "
                        + "`cancel` with its journal, then execute this plan; nothing was changed");
            }
            if (!others.said().isEmpty()) {
                others.said().forEach(line -> context.console().say("note: " + line));
                context.console().say("note: the run sets its own throttles over these and puts these back as they "
                        + "are when it ends; if a run that stopped left them, they stay after this one too (`sluice "
                        + "reassign check --fix` removes throttles no move needs)");
            }
            ProgressView view = new ProgressView(context.console(), run.progressEvery);
            if (rate > 0) {
                view.note("throttle: " + Units.bytesAsGiven(rate) + "/s per broker");
            }
            try (ClusterJournal topic = JournalTopic.of(admin, kafka, plan);
                    Journal j = Journal.open(journalFile, run.journalTopic ? topic : JournalMirror.NONE);
                    SignalStop stop = SignalStop.install(context.console(), journalFile)) {
                new ReassignmentRun(admin, j, options, view).run(plan);
            } catch (RestoreIncompleteException e) {
                throw new RunFailure(e.getMessage(), e); // the moves are done: "stopped midway" would mislead
            } catch (ClusterException e) {
                throw new RunFailure(e.getMessage() + ". " + ResumeHint.of(journalFile), e);
            }
            view.finish("done: " + plan.moves().size() + (plan.moves().size() == 1 ? " partition" : " partitions")
                    + " moved; every config it changed is restored "
                    + "(journal " + journalFile + ")");
            return ExitStatus.OK;
        });
    }
}
