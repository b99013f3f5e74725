package io.sluice.cli.cluster;

import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --topic}, for the commands that work on chosen topics: a picocli mixin beside {@link KafkaFlags}.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class TopicFlags {

    @Option(names = {"-t", "--topic"}, paramLabel = "TOPIC", split = ",",
            description = "A topic; repeat or separate with commas. Over a pipeline file's, where the command takes one.")
    List<String> topics;

    /** {@code --topic}, else {@code base}. */
    public List<String> topics(List<String> base) {
        return topics != null ? List.copyOf(topics) : base;
    }
}
