package io.sluice.cli.local;

import picocli.CommandLine.Command;

/**
 * {@code sluice local}: the group of commands for the local servers. Not runnable by itself: picocli answers
 * {@code sluice local} alone with its usage and exit status 2.
 *
 * <p>Stateless.
 */
@Command(name = "local", mixinStandardHelpOptions = true,
        description = {"The local Kafka broker of a quick start, started again on its data."},
        subcommands = {LocalStartCommand.class})
public final class LocalCommand {
}
