package io.sluice.cli.mirror;

import io.sluice.core.RecordsLostException;
import io.sluice.core.RecordsLostException.Kind;
import io.sluice.core.RecordsLostException.Loss;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The way on past a mirror's lost records, as Kafka's own commands filled in with the mirror's cluster, group, topics,
 * partitions and offsets: the progress lives where the delivery keeps it (exactly once, the group
 * {@code sluice-mirror.<name>} in the target, under the target topic's name; at least once, that group in the source,
 * under the source topic's). Records deleted before they were copied: move that progress to where the log starts now.
 * A topic created again: its records are not the ones the target topic holds copies of, so the way on is a target topic
 * of its own, not a reset (a reset mixed the two topics' records in one target topic, which {@code verify} then read as
 * duplicates: a new user's run).
 *
 * <p>Threading: none; a function of the config and the loss.
 */
final class GapAdvice {

    private final MirrorConfig config;

    GapAdvice(MirrorConfig config) {
        this.config = config;
    }

    String of(RecordsLostException lost) {
        boolean exactlyOnce = config.delivery() == MirrorDelivery.EXACTLY_ONCE;
        String command = "kafka-consumer-groups.sh --bootstrap-server "
                + (exactlyOnce ? config.targetProperties() : config.sourceProperties()).get("bootstrap.servers")
                + " --group " + (exactlyOnce ? config.progressGroup() : config.sourceGroup());
        List<Loss> deleted = lost.losses().stream().filter(l -> l.kind() == Kind.DELETED && l.logStart() >= 0).toList();
        List<Loss> recreated = lost.losses().stream().filter(l -> l.kind() != Kind.DELETED).toList();
        StringBuilder b = new StringBuilder("A mirror never skips records: the progress stays where the loss begins.");
        if (lost.losses().isEmpty()) {
            return b.append(" To go on past the gap in that partition alone, stop every instance of the mirror and "
                    + "move its progress with Kafka's tool: ").append(command).append(" --reset-offsets --topic ")
                    .append(exactlyOnce ? "<the target topic>" : "<topic>")
                    .append(":<partition> --to-offset <the first offset to copy> --execute (docs/mirror.md, Loud gaps)")
                    .toString();
        }
        if (!deleted.isEmpty()) {
            b.append(" To go on past ").append(deleted.size() == 1 ? "the gap" : "the gaps").append(", stop every "
                    + "instance of the mirror, move the progress with Kafka's tool, and start it again: ");
            List<String> resets = new ArrayList<>();
            resetsByTopicAndOffset(deleted, exactlyOnce).forEach((topicAndOffset, partitions) -> resets.add(command
                    + " --reset-offsets --topic " + topicAndOffset.topic + ":" + partitions.stream().map(String::valueOf)
                    .collect(Collectors.joining(",")) + " --to-offset " + topicAndOffset.offset + " --execute"));
            b.append(String.join("; then ", resets)).append('.');
        }
        if (!recreated.isEmpty()) {
            TreeSet<String> topics = recreated.stream().map(l -> l.partition().topic())
                    .collect(Collectors.toCollection(TreeSet::new));
            for (String topic : topics) {
                String target = config.naming().target(topic);
                b.append(" Source topic ").append(topic).append(" was deleted and created again (or truncated) since "
                        + "the mirror copied it: its records are not the ones target topic ").append(target)
                        .append(" holds copies of, and copying them on top would mix the two. Mirror it into a target "
                                + "topic of its own (a mirror of its own, with its own topic-name), or delete ")
                        .append(target).append(" and the mirror's progress of it (").append(command)
                        .append(" --delete-offsets --topic ").append(exactlyOnce ? target : topic)
                        .append(") before starting again.");
            }
        }
        return b.append(" (docs/mirror.md, Loud gaps)").toString();
    }

    private record TopicAndOffset(String topic, long offset) implements Comparable<TopicAndOffset> {
        @Override
        public int compareTo(TopicAndOffset o) {
            int byTopic = topic.compareTo(o.topic);
            return byTopic != 0 ? byTopic : Long.compare(offset, o.offset);
        }
    }

    /** One reset per progress topic and offset (Kafka's tool takes {@code topic:0,2} for several partitions). */
    private Map<TopicAndOffset, TreeSet<Integer>> resetsByTopicAndOffset(List<Loss> deleted, boolean exactlyOnce) {
        Map<TopicAndOffset, TreeSet<Integer>> resets = new TreeMap<>();
        for (Loss l : deleted) {
            String topic = exactlyOnce ? config.naming().target(l.partition().topic()) : l.partition().topic();
            resets.computeIfAbsent(new TopicAndOffset(topic, l.logStart()), k -> new TreeSet<>())
                    .add(l.partition().partition());
        }
        return resets;
    }
}
