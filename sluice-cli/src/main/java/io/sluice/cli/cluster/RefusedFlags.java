package io.sluice.cli.cluster;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code --topic} and {@code --group} for the commands that take neither, left out of their help: given, they are
 * refused saying what the command works on instead. Accepted and ignored, they let a user believe a run was limited to
 * them; left to picocli, "Unknown options: '-t'" came with a suggestion of {@code --throttle}.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class RefusedFlags {

    /** {@code --topic} alone, for the commands that take {@code --group} but not this. */
    public static final class Topic {
        @Option(names = {"-t", "--topic"}, hidden = true)
        List<String> topics;

        @Spec(Spec.Target.MIXEE)
        CommandLine.Model.CommandSpec command;

        /** @param takes what the command works on instead, e.g. "the moves its plan names" */
        public void refuse(String takes) {
            refuseIf(topics != null, "--topic", command, takes);
        }
    }

    /** {@code --group} alone, for the commands that take {@code --topic} but not this. */
    public static final class Group {
        @Option(names = {"-g", "--group"}, hidden = true)
        String group;

        @Spec(Spec.Target.MIXEE)
        CommandLine.Model.CommandSpec command;

        /** @param takes what the command works on instead, e.g. "the topics of --topic, or every topic" */
        public void refuse(String takes) {
            refuseIf(group != null, "--group", command, takes);
        }
    }

    private RefusedFlags() {
    }

    private static void refuseIf(boolean given, String flag, CommandLine.Model.CommandSpec command, String takes) {
        if (given) {
            throw new CommandLine.ParameterException(command.commandLine(), flag + " is not for "
                    + command.qualifiedName() + ": it works on " + takes);
        }
    }
}
