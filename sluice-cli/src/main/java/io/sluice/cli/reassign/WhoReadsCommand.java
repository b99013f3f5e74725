package io.sluice.cli.reassign;

import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.cluster.RefusedFlags;
import io.sluice.cli.cluster.TopicFlags;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Units;
import io.sluice.cli.produce.ProduceCommand;
import io.sluice.reassign.plan.PlanFile;
import io.sluice.reassign.readers.TopicReader;
import io.sluice.reassign.readers.WhoReads;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code sluice reassign who-reads}: per topic, the consumer groups reading it, their lag and their members.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "who-reads", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Per topic (--topic, or every topic), the consumer groups with committed offsets on it, their "
                + "state and lag, and their members' client IDs and hosts: whom to warn before the topic moves.")
final class WhoReadsCommand implements Callable<Integer> {

    @Mixin
    KafkaFlags kafka;

    @Mixin
    TopicFlags topicFlags;

    @Mixin
    RefusedFlags.Group refusedGroup;

    @Option(names = "--json", description = "One JSON object per topic and group, one per line.")
    boolean json;

    @Spec
    CommandLine.Model.CommandSpec spec;

    private final CliContext context;

    WhoReadsCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        refusedGroup.refuse("every group reading the topics of --topic, or every topic");
        return ClusterConnection.with(kafka, spec, admin -> {
            Set<String> topics = Set.copyOf(topicFlags.topics(List.of()));
            List<TopicReader> all;
            try {
                all = new WhoReads(admin).of(topics);
            } catch (IllegalArgumentException e) { // only an unknown topic's, per WhoReads.of
                throw new RunFailure(e.getMessage() + "; check the names");
            }
            // an exactly-once produce keeps its import's position as a group's offsets on the topic it writes: a
            // writer's bookkeeping, not a reader to warn
            List<TopicReader> readers = all.stream()
                    .filter(r -> !r.group().startsWith(ProduceCommand.PROGRESS_GROUP_PREFIX)).toList();
            if (readers.isEmpty()) {
                context.console().say("no consumer group has committed offsets on these topics");
            }
            for (TopicReader r : readers) {
                if (json) {
                    context.console().result(PlanFile.jsonLine(r));
                } else {
                    context.console().result(r.topic() + "  group " + r.group() + " (" + r.state() + "), lag "
                            + Units.count(r.lag()) + ", members: " + (r.members().isEmpty() ? "none"
                            : r.members().stream().map(m -> m.clientId() + "@" + m.host())
                                    .collect(Collectors.joining(", "))));
                }
            }
            long positions = all.stream().map(TopicReader::group).distinct()
                    .filter(g -> g.startsWith(ProduceCommand.PROGRESS_GROUP_PREFIX)).count();
            if (positions > 0 && !json) {
                context.console().say("not shown: " + positions + (positions == 1 ? " group" : " groups") + " ("
                        + ProduceCommand.PROGRESS_GROUP_PREFIX + "*) where an exactly-once `sluice produce` "
                        + "keeps its import's position; they write the topic, they do not read it");
            }
            return ExitStatus.OK;
        });
    }
}
