package io.sluice.cli.cluster;

import picocli.CommandLine.Option;

/**
 * {@code --group}, for the commands that read a consumer group's positions: a picocli mixin beside
 * {@link KafkaFlags}.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class GroupFlags {

    @Option(names = {"-g", "--group"}, paramLabel = "GROUP",
            description = "The consumer group; over a pipeline file's source.group.")
    String group;

    /** {@code --group}, else {@code base} (null when neither). */
    public String group(String base) {
        return group != null ? group : base;
    }
}
