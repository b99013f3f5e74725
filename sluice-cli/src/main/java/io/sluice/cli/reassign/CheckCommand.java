package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.cli.config.OptionValues;
import io.sluice.reassign.check.Leftover;
import io.sluice.reassign.check.LeftoverCheck;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.plan.PlanFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign check}: what reassignments left on the cluster, and with {@code --fix} its removal.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Looks over the whole cluster for what moves leave behind: throttles on brokers, the cluster "
                + "default and topics that no move under way needs; configs a run changed and never restored "
                + "(temporary retention.bytes among them), from the cluster's journal topic sluice-reassign-journal "
                + "and any --journal files; moves that do not progress. --fix removes them: throttles deleted, "
                + "journaled configs restored to their values before, stalled moves cancelled.")
final class CheckCommand implements Callable<Integer> {

    @Mixin
    KafkaFlags kafka;

    @Mixin
    RefusedFlags.Topic refusedTopic;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Option(names = "--journal", paramLabel = "FILE", description = "A run's journal file: its configs not restored "
            + "are leftovers too (runs with --no-journal-topic); repeatable.")
    List<Path> journals;

    @Option(names = "--fix", description = "Remove what is found.")
    boolean fix;

    @Option(names = "--stall-window", paramLabel = "DURATION", defaultValue = "10s",
            converter = OptionValues.DurationValue.class,
            description = "A move whose new replicas do not grow in this time, and have not caught up, is stalled "
                    + "(default ${DEFAULT-VALUE}; a throttled move can fetch nothing for about Kafka's quota window, "
                    + "11 s, after its first burst, so throttled moves are watched for 15 s at least).")
    Duration stallWindow;

    @Option(names = "--json", description = "The leftovers as one JSON object per line.")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    CheckCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        refusedTopic.refuse("every broker and topic of the cluster");
        refusedGroup.refuse("every broker and topic of the cluster");
        for (Path journal : journals == null ? List.<Path>of() : journals) {
            if (!Files.exists(journal)) {
                // read as empty, it said "clean" of a run it never saw
                throw new RunFailure("no journal " + journal);
            }
        }
        return ClusterConnection.with(kafka, spec, admin -> {
            try (ClusterJournal topic = new ClusterJournal(admin, kafka.clientProperties(Map.of()), Set.of())) {
                return check(new LeftoverCheck(admin, stallWindow, topic));
            }
        });
    }

    private int check(LeftoverCheck check) throws InterruptedException {
        List<Leftover> found = check.find(journals == null ? List.of() : journals);
        for (Leftover leftover : found) {
            if (json) {
                Map<String, Object> line = new LinkedHashMap<>();
                line.put("kind", leftover.getClass().getSimpleName());
                line.put("leftover", leftover.describe());
                context.console().result(PlanFile.jsonLine(line));
            } else {
                context.console().result(leftover.describe());
            }
        }
        LeftoverCheck.UnderWay underWay = check.underWay();
        if (found.isEmpty()) {
            context.console().say("clean: no throttle, temporary config or stalled move left behind"
                    + (underWay.moving().isEmpty() ? "" : "; " + underWay(underWay)));
            return ExitStatus.OK;
        }
        if (!underWay.moving().isEmpty()) {
            context.console().say(underWay(underWay));
        }
        long silent = found.stream().filter(l -> l instanceof Leftover.SilentBroker).count();
        String unchecked = silent == 0 ? "" : silent + " broker(s) not checked: check again once they answer";
        if (!fix) {
            context.console().say(silent == found.size() ? unchecked
                    : (found.size() - silent) + " leftover(s); `--fix` removes them" + (silent == 0 ? "" : "; "
                    + unchecked));
            return ExitStatus.FAILURE;
        }
        check.fix(found, context.console()::say);
        context.console().say("fixed " + (found.size() - silent) + " leftover(s)" + (silent == 0 ? "" : "; "
                + unchecked));
        return silent == 0 ? ExitStatus.OK : ExitStatus.FAILURE;
    }

    /** The moves under way and what is set for them, in a line: set, though not left over. */
    private static String underWay(LeftoverCheck.UnderWay underWay) {
        List<String> moving = underWay.moving().stream().map(Object::toString).sorted().toList();
        String partitions = moving.size() <= 10 ? String.join(", ", moving)
                : String.join(", ", moving.subList(0, 10)) + " and " + (moving.size() - 10) + " more";
        return moving.size() + (moving.size() == 1 ? " partition moves" : " partitions move") + " now (" + partitions
                + ")" + (underWay.kept().isEmpty() ? "" : ", with what is set for the moves: "
                + String.join(", ", underWay.kept())) + ". Not left over while they move: once they end, what a run "
                + "set is restored by its `sluice reassign resume <journal>`, or listed here";
    }
}
