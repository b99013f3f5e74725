package io.sluice.cli;

import io.sluice.cli.cluster.SourceTopics;
import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.console.LogFormat;
import io.sluice.cli.console.Logging;
import io.sluice.cli.local.LocalCommand;
import io.sluice.cli.lag.LagCommand;
import io.sluice.cli.merge.MergeCommand;
import io.sluice.cli.merge.MergeLag;
import io.sluice.cli.mirror.MirrorCommand;
import io.sluice.cli.mirror.MirrorLag;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.cli.lag.LagInputs;
import io.sluice.cli.pipeline.DocsCommand;
import io.sluice.cli.pipeline.Pipeline;
import io.sluice.cli.pipeline.PipelineParts;
import io.sluice.cli.produce.ProduceCommand;
import io.sluice.cli.pipeline.Pipelines;
import io.sluice.cli.quickstart.QuickstartCommand;
import io.sluice.cli.reassign.ReassignCommand;
import io.sluice.cli.run.RunCommand;
import io.sluice.cli.topic.TopicCommand;
import io.sluice.cli.validate.ValidateCommand;
import io.sluice.cli.verify.VerifyCommand;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code sluice} command and the one place its subcommands are registered ({@link #SUBCOMMANDS}).
 *
 * <p>Threading: one command line per invocation, on the main thread.
 */
@Command(name = "sluice", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Moves data into, out of and between Kafka clusters: archives topics to local files, S3 and "
                + "HDFS as compressed, partitioned files, exactly once; mirrors topics between clusters; produces "
                + "files into topics; merges streams in event-time order; moves partitions between brokers.", ""},
        footer = {"", "Exit status: 0 done (or drained cleanly after Ctrl-C / SIGTERM), 1 runtime failure, 2 bad usage "
                + "or pipeline file, 3 (produce) some records were not acknowledged, 130 stopped at once by a second Ctrl-C."})
public final class SluiceCommand implements Callable<Integer> {

    /** The subcommands, in the order the help lists them; {@code help} comes last. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(QuickstartCommand.class, LocalCommand.class,
            RunCommand.class, MirrorCommand.class, MergeCommand.class, ProduceCommand.class, ReassignCommand.class,
            ValidateCommand.class, VerifyCommand.class, LagCommand.class, TopicCommand.class, DocsCommand.class);

    @Option(names = "--log-format", scope = ScopeType.INHERIT, paramLabel = "text|json", defaultValue = "text",
            description = "Log lines as readable text (the default) or one JSON object per line.")
    LogFormat logFormat;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "Debug logs of Sluice and info logs of the Kafka and storage clients.")
    boolean verbose;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitStatus.USAGE;
    }

    /** The command line with every subcommand and everything wired: factory, logging set-up and exit statuses. */
    static CommandLine commandLine(CliContext context) {
        return commandLine(context, null);
    }

    /**
     * As {@link #commandLine(CliContext)}, with only the subcommand {@code args} name when they name one: picocli
     * builds each command's model by reflection when it is added, and building all of them took 350 ms of every start
     * (a third of a mirror's time to its first copy). The help, a mistyped name and no name at all get every one.
     */
    static CommandLine commandLine(CliContext context, String[] args) {
        SluiceCommand top = new SluiceCommand();
        CommandLine cli = new CommandLine(top, factory(context));
        String named = args == null ? null : subcommandIn(args);
        for (Class<?> type : SUBCOMMANDS) {
            if (named == null || named.equals(nameOf(type))) {
                cli.addSubcommand(type);
            }
        }
        if (named == null) {
            cli.addSubcommand(new CommandLine.HelpCommand());
        }
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setOut(new PrintWriter(context.console().out(), true));
        cli.setErr(new PrintWriter(context.console().err(), true));
        cli.setExecutionStrategy(parsed -> {
            Logging.configure(context.console().logStream(), top.logFormat, top.verbose);
            try {
                return new CommandLine.RunLast().execute(parsed);
            } finally {
                Logging.finish();
            }
        });
        cli.setExecutionExceptionHandler((e, command, parsed) -> failed(e, context, top.verbose));
        cli.setParameterExceptionHandler((e, given) -> misused(e));
        return cli;
    }

    /**
     * A command line picocli cannot take: the mistake, then picocli's suggestion for a misspelt name or else the
     * command's synopsis and where every option is explained. Picocli's own handler printed the whole help (50 lines
     * for {@code run}), which pushed the one line that says what was wrong off the screen.
     */
    private static int misused(CommandLine.ParameterException e) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !command.getSubcommands().isEmpty()
                && !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-")) {
            // "Unmatched argument at index 1: 'stop'" for sluice local stop (a new user's run)
            err.println(command.getCommandSpec().qualifiedName() + " has no command '"
                    + unmatched.getUnmatched().get(0) + "'; its commands: "
                    + String.join(", ", command.getSubcommands().keySet()));
        } else {
            // picocli 4.7's words for a KEY=VALUE option's value without '=' say "option" twice
            err.println(String.valueOf(e.getMessage()).replace("for option option '", "for option '"));
        }
        if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
            CommandLine.Help help = command.getHelp();
            err.print(help.synopsisHeading() + help.synopsis(help.synopsisHeadingLength()));
            err.println("'" + command.getCommandSpec().qualifiedName() + " --help' explains every option.");
        }
        err.flush();
        return ExitStatus.USAGE;
    }

    /** The subcommand the arguments name, past the top command's own options; null when none or not one of ours. */
    private static String subcommandIn(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--log-format")) {
                i++; // its value
            } else if (!arg.startsWith("-")) {
                return SUBCOMMANDS.stream().map(SluiceCommand::nameOf).anyMatch(arg::equals) ? arg : null;
            } else if (!arg.startsWith("--log-format=") && !arg.equals("-v") && !arg.equals("--verbose")) {
                return null; // --help, --version, or a mistake picocli explains
            }
        }
        return null;
    }

    private static String nameOf(Class<?> command) {
        return command.getAnnotation(Command.class).name();
    }

    private static int failed(Exception e, CliContext context, boolean verbose) {
        context.console().clearStatus();
        if (e instanceof ConfigException config) {
            for (ConfigProblem problem : config.problems()) {
                context.console().say(problem.toString());
            }
            return ExitStatus.USAGE;
        }
        if (e instanceof RunFailure failure) {
            context.console().say("sluice: " + failure.getMessage());
            return ExitStatus.FAILURE;
        }
        boolean inWords = e instanceof org.apache.kafka.common.KafkaException || e instanceof IllegalStateException
                || e instanceof IllegalArgumentException && !(e instanceof NumberFormatException)
                || e instanceof java.io.UncheckedIOException || e instanceof java.io.IOException;
        String words = inWords ? io.sluice.cli.run.EngineRun.describe(e) : "";
        if (!words.isBlank() && !words.startsWith("null")) {
            // a client that could not be made (a store its password does not open), a journal in use: said in words,
            // with what the causes add ("unexpected error: kafka: Failed to construct kafka consumer" said nothing of
            // the truststore, a new user's run); the stack is for --verbose. One without a message of its own is not
            // an error a person can act on: it stays unexpected
            String wrongPassword = "keystore password was incorrect";
            int at = words.indexOf(wrongPassword);
            if (at >= 0) {
                // what follows is the cipher's ("failed to decrypt safe contents entry: Given final block not properly
                // padded..."), which says the same to a person
                words = words.substring(0, at + wrongPassword.length()) + " (a truststore or keystore password "
                        + "does not open its file: check the -X ssl.*.password or the file's tls passwords; `sluice "
                        + "validate` names which)";
            }
            if (verbose) {
                LoggerFactory.getLogger("sluice").error("{}", words, e);
            } else {
                context.console().say("sluice: " + words);
            }
            return ExitStatus.FAILURE;
        }
        LoggerFactory.getLogger("sluice").error("unexpected error: {}", e.toString(), verbose ? e : null);
        return ExitStatus.FAILURE;
    }

    private static LagInputs lagInputs(Path file, CliContext context) throws ConfigException, RunFailure {
        if (MirrorFile.isMirror(file)) {
            return MirrorLag.inputs(MirrorFile.load(file, context.variables()).config());
        }
        Pipeline pipeline = Pipelines.loadToRead(file, context.variables());
        return PipelineParts.lag(pipeline, SourceTopics.resolve(pipeline.source()));
    }

    /**
     * Creates commands, passing the context to those whose constructor takes it; {@code lag} (a library command) gets
     * the reader of pipeline files, and the report of merge files.
     */
    private static CommandLine.IFactory factory(CliContext context) {
        CommandLine.IFactory fallback = CommandLine.defaultFactory();
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                if (type == LagCommand.class) {
                    return type.cast(new LagCommand(file -> lagInputs(file, context),
                            file -> MergeLag.report(file, context.variables()), context.console().terminal()));
                }
                try {
                    Constructor<K> constructor = type.getDeclaredConstructor(CliContext.class);
                    constructor.setAccessible(true);
                    return constructor.newInstance(context);
                } catch (NoSuchMethodException e) {
                    return fallback.create(type);
                }
            }
        };
    }
}
