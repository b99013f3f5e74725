package io.sluice.cli.topic;

import picocli.CommandLine.Command;

/**
 * {@code sluice topic}: the group of commands for topics. Not runnable by itself: picocli answers {@code sluice topic}
 * alone with its usage and exit status 2.
 *
 * <p>Stateless.
 */
@Command(name = "topic", mixinStandardHelpOptions = true,
        description = {"Topics: create one (a dead-letter topic, or a topic to produce into) where no kafka-topics.sh "
                + "is at hand, as on the quick start's broker, which creates none by itself."},
        subcommands = {TopicCreateCommand.class})
public final class TopicCommand {
}
