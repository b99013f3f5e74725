package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Units;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.cli.cluster.TopicFlags;
import io.sluice.cli.config.OptionValues;
import io.sluice.reassign.cluster.ClusterReader;
import io.sluice.reassign.execute.Reassignments;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.execute.ExecuteOptions;
import io.sluice.reassign.plan.DiskHeadroom;
import io.sluice.reassign.plan.DiskProjection;
import io.sluice.reassign.plan.DiskUse;
import io.sluice.reassign.plan.Goal;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.PlanFile;
import io.sluice.reassign.plan.Planner;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign plan}: reads the cluster, plans the fewest moves for the goal, shows them with every log
 * dir's disk now, at peak and after, and writes the plan file, or refuses a plan whose peak passes the headroom.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Plans the fewest replica moves for a goal, keeping each partition on as many racks and the "
                + "preferred leaderships even; shows each log dir's disk now, at peak (incoming replicas copied, "
                + "outgoing ones not deleted yet) and after; writes the plan (JSON) for `execute`, unless the peak "
                + "passes --max-disk-use of a log dir's capacity (as the brokers report it).")
final class PlanCommand implements Callable<Integer> {

    /** Exactly one goal. */
    static final class GoalFlags {
        @Option(names = "--add-brokers", paramLabel = "ID", split = ",", required = true,
                description = "New brokers: they take their share of bytes, replicas and leaderships.")
        Set<Integer> add;

        @Option(names = "--remove-brokers", paramLabel = "ID", split = ",", required = true,
                description = "Brokers to empty: every replica they hold moves to the others.")
        Set<Integer> remove;

        @Option(names = "--balance", required = true, description = "Even out the bytes on disk over every broker.")
        boolean balance;

        Goal goal() {
            if (add != null) {
                return Goal.add(add);
            }
            return remove != null ? Goal.remove(remove) : Goal.balance();
        }
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    GoalFlags goal;

    @Mixin
    KafkaFlags kafka;

    @Mixin
    TopicFlags topicFlags;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Option(names = "--max-disk-use", paramLabel = "SHARE", defaultValue = "80%", converter = DiskShareValue.class,
            description = "Refuse a plan whose peak passes this share of a log dir's capacity (default "
                    + "${DEFAULT-VALUE}).")
    double maxDiskUse;

    @Option(names = "--log-dir-capacity", paramLabel = "SIZE", converter = OptionValues.SizeValue.class,
            description = "Instead of the volume sizes the brokers report: take each log dir as a volume of SIZE "
                    + "(e.g. 500GB) holding only its replicas; for volumes shared with other data or under quotas.")
    Long logDirCapacity;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "reassign-plan.json",
            description = "Where the plan goes (default ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--json", description = "Print the plan as JSON instead of text (it is written to the file "
            + "either way).")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    PlanCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        refusedGroup.refuse("the topics of --topic, or every topic");
        return ClusterConnection.with(kafka, spec, admin -> {
            Set<TopicPartition> underWay = new Reassignments(admin).ongoing(Set.of()).keySet();
            if (!underWay.isEmpty()) {
                // their replica lists hold the adding and removing replicas both: a plan over them would be wrong
                throw new RunFailure("moves are under way on the cluster (" + underWay.stream()
                        .map(TopicPartition::toString).sorted().limit(5).collect(Collectors.joining(", "))
                        + (underWay.size() > 5 ? ", ..." : "") + "): wait for them, or `sluice reassign check`");
            }
            ClusterSnapshot read = new ClusterReader(admin).snapshot();
            ClusterSnapshot snapshot;
            try {
                snapshot = logDirCapacity == null ? read : read.withLogDirCapacity(logDirCapacity);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--log-dir-capacity: " + e.getMessage());
            }
            Goal target = goal.goal();
            List<PartitionMove> moves;
            try {
                moves = new Planner(snapshot).plan(target, Set.copyOf(topicFlags.topics(List.of())));
            } catch (IllegalArgumentException e) {
                throw new RunFailure("no plan: " + e.getMessage());
            }
            if (moves.isEmpty()) {
                // a plan of nothing was written without a word (a new user's --add-brokers of a broker in use)
                context.console().say("nothing to move: the cluster already meets the goal (" + target + ")"
                        + (goal.add != null ? "; the brokers to add already hold their share" : ""));
            }
            List<DiskUse> disks = DiskProjection.of(snapshot, moves);
            ReassignmentPlan plan = new ReassignmentPlan(Reassignments.clusterId(admin), target.toString(), moves,
                    disks, logDirCapacity);
            DiskHeadroom headroom = new DiskHeadroom(maxDiskUse);
            List<DiskUse> over = headroom.exceeded(disks);
            if (json) {
                context.console().result(PlanFile.json().writeValueAsString(plan));
            } else {
                PlanReport.print(plan, context.console());
            }
            if (!over.isEmpty()) {
                for (DiskUse use : over) {
                    context.console().say("refused: " + PlanReport.overLine(use, headroom));
                }
                // a log dir already past the limit takes no replica however few move: moving fewer cannot help
                boolean alreadyOver = over.stream().allMatch(use -> use.now() > headroom.limitBytes(use));
                context.console().say("no plan written: the peak passes --max-disk-use " + DiskUse.percent(maxDiskUse)
                        + " on " + over.size() + " log dir(s); " + (alreadyOver ? "they are past it already, before "
                        + "any move: free space on them, or raise --max-disk-use" : "move fewer topics at a time "
                        + "(--topic, with --add-brokers or --balance), add disk, or raise --max-disk-use"));
                return ExitStatus.FAILURE;
            }
            for (DiskUse use : headroom.tight(disks, ExecuteOptions.TIGHT_MARGIN)) {
                // the guard deletes records of the topics moving there if they outgrow the room: said before execute
                context.console().say("broker " + use.broker() + " " + use.logDir() + " is at " + DiskUse.percent(
                        use.peakShare()) + " of its disk at the peak, within 10 points of --max-disk-use "
                        + DiskUse.percent(maxDiskUse) + ": execute guards the topics moving there with a temporary "
                        + "retention.bytes, so that they grow by at most their share of what is left ("
                        + Units.bytes(Math.max(0, headroom.limitBytes(use) - use.peak())) + ") and delete their oldest "
                        + "records beyond it; --no-retention-guard moves without the guard");
            }
            PlanFile.write(output, plan);
            context.console().say("plan written to " + output + ": " + moves.size() + " partitions, "
                    + plan.replicaMoves() + " replica copies; review it, then `sluice reassign execute " + output + "`");
            return ExitStatus.OK;
        });
    }
}
