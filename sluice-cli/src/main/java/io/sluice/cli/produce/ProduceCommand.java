package io.sluice.cli.produce;

import io.sluice.core.commit.TransactionSpan;
import io.sluice.cli.CliContext;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.PropertyFlags;
import io.sluice.cli.config.OptionValues;
import io.sluice.cli.console.Units;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.cli.run.EngineRun;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.producer.DeliveryJournal;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.ProducerSettings;
import io.sluice.producer.UnsafeProducerSettingsException;
import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.Input;
import io.sluice.producer.input.InputFormat;
import io.sluice.producer.input.InputReading;
import io.sluice.producer.input.Inputs;
import io.sluice.producer.input.RatePacer;
import io.sluice.producer.input.RecordParser;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sluice produce}: lines from files or standard input into a topic, none lost in silence (docs/produce.md).
 * Checks the flags, the settings and the topic, then hands the run to a {@link ProduceRun} over the delivery chosen.
 *
 * <p>Threading: filled by picocli, then called on the command's thread.
 */
@Command(name = "produce", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sends input lines to a topic: standard input, or files, folders and globs, as plain lines, "
                + "JSON Lines or JSON envelopes, gzip/zstd/lz4 compressed or not (detected). acks=all and idempotence "
                + "always, unless --allow-loss accepts a weaker -X setting.",
            "Every record is acknowledged or reported: the summary at the end (or after Ctrl-C / SIGTERM, which stops "
                    + "reading and waits for what was sent) counts them and lists the first failures by file and "
                    + "line. --exactly-once imports files in transactions that commit the position in the input with "
                    + "the records, so a rerun after any crash goes on where the last commit ended."},
        footer = {"", "Exit status: 0 every record read was acknowledged, 3 some were not (failed, or without an answer "
                + "when the drain timeout passed), 1 the brokers or the inputs failed, 2 bad usage, 130 a second "
                + "Ctrl-C."})
public final class ProduceCommand implements Callable<Integer> {

    /**
     * What names the group in which an exactly-once import keeps its position (its offsets on the topic written):
     * followed by the import's name.
     */
    public static final String PROGRESS_GROUP_PREFIX = "sluice-produce.";

    @Parameters(paramLabel = "INPUT", arity = "0..*", description = "Files, folders (every file below, sorted) or "
            + "globs ('logs/*.gz'); none, or -, for standard input.")
    List<String> inputs;

    @Option(names = {"-b", "--bootstrap-servers"}, required = true, paramLabel = "HOST:PORT[,...]",
            description = "The brokers.")
    String bootstrapServers;

    @Option(names = {"-t", "--topic"}, required = true, paramLabel = "TOPIC", description = "The topic; it must exist.")
    String topic;

    @Option(names = "--format", paramLabel = "lines|json|envelope", defaultValue = "lines",
            description = "What a line is: any text (the default), a JSON value (JSON Lines, checked), or an envelope "
                    + "{\"key\":..,\"value\":..,\"headers\":{..},\"partition\":..,\"timestamp\":..}.")
    InputFormat format;

    @Option(names = "--key-field", paramLabel = "FIELD", description = "With --format json: the top-level field "
            + "whose value is the key.")
    String keyField;

    @Option(names = "--key-delimiter", paramLabel = "TEXT", description = "With --format lines: the key is the text "
            + "before the first TEXT, the value what follows.")
    String keyDelimiter;

    @Option(names = "--schema", paramLabel = "FILE.avsc", description = "With --format json or envelope: check each "
            + "value against this Avro schema and send it as Avro binary; a value that does not fit fails its line "
            + "(field, and what was expected).")
    Path schema;

    @Option(names = "--confluent-framing", description = "With --schema: frame each value as Confluent's "
            + "serializers do (a zero byte and the --schema-id before the Avro bytes).")
    boolean confluentFraming;

    @Option(names = "--schema-id", paramLabel = "N", description = "The schema's ID in the schema registry, for "
            + "--confluent-framing.")
    Integer schemaId;

    @Option(names = "--rate", paramLabel = "RECORDS/S",
            description = "At most this many records per second, more than 0 (default: no limit).")
    Double rate;

    @Option(names = {"-X", "--producer-property"}, paramLabel = "KEY=VALUE", description = "A producer setting, e.g. "
            + "security.protocol=SSL or linger.ms=20; repeatable. Settings that can lose records (acks 0 or 1, "
            + "retries 0, idempotence off) are refused without --allow-loss.")
    Map<String, String> properties;

    @Option(names = "--allow-loss", description = "Accept -X settings that can lose records; the summary lists them.")
    boolean allowLoss;

    @Option(names = "--drain-timeout", paramLabel = "DURATION", defaultValue = "30s",
            converter = OptionValues.DurationValue.class, description = "After Ctrl-C / SIGTERM, how long to wait for "
            + "the answers to what was sent (default ${DEFAULT-VALUE}); records still without one are reported.")
    Duration drainTimeout;

    @Option(names = "--journal", paramLabel = "FILE", description = "Append one line per input record to FILE: "
            + "file:line, byte offset, and partition@offset or why it failed; with --exactly-once, one per line that "
            + "failed (bad input, refused by the topic).")
    Path journal;

    @Option(names = "--exactly-once", description = "Files only: send in transactions that commit the position in "
            + "the input with the records, every --commit-interval and at the end; rerunning the same command after "
            + "a crash goes on after the last committed line.")
    boolean exactlyOnce;

    @Option(names = "--commit-interval", paramLabel = "DURATION", defaultValue = "1s",
            converter = OptionValues.DurationValue.class,
            description = "With --exactly-once: how often to commit (default ${DEFAULT-VALUE}).")
    Duration commitInterval;

    @Option(names = "--name", paramLabel = "NAME", description = "With --exactly-once: the import's name, which keeps "
            + "its position (default: the topic and a hash of the input paths).")
    String name;

    /** Batches larger than Kafka's 16 KiB default: fewer requests for the same acks=all wait. */
    private static final int DEFAULT_BATCH_BYTES = 128 * 1024;
    /** Kafka's default max.request.size. */
    private static final int KAFKA_MAX_REQUEST_BYTES = 1024 * 1024;

    private final CliContext context;

    @Spec
    CommandLine.Model.CommandSpec spec;

    ProduceCommand(CliContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws Exception {
        List<Input> expanded;
        RecordParser parser;
        ProducerSettings settings;
        try {
            expanded = Inputs.expand(inputs);
            parser = withSchema(format.parser(keyField, keyDelimiter));
            checkModes(expanded);
            checkRate();
            settings = settings(DEFAULT_BATCH_BYTES, null);
        } catch (IllegalArgumentException e) {
            context.console().say("sluice produce: " + e.getMessage());
            return ExitStatus.USAGE;
        }
        // a signal before the run's own handlers (the probe, the topic's facts, an import's claim: seconds, up to
        // minutes) says what it stopped; it exited 143 without a word (a review)
        ShutdownSignals starting = ShutdownSignals.whileStarting("sluice produce", context.console()::say);
        try {
            // before any Kafka client: a wrong address or protocol is one sentence, not a client's retries for 20 s
            int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyFor("sluice produce", settings.properties(),
                    spec.commandLine().getErr());
            if (probed != 0) {
                return probed;
            }
            TopicCheck.Facts facts = TopicCheck.of(settings.properties(), topic);
            if (facts.maxMessageBytes() < KAFKA_MAX_REQUEST_BYTES) {
                // a batch larger than the topic takes is split by the producer into batches of batch.size; when those
                // are
                // still too large, Kafka 4.3's producer splits them again, forever, until its I/O thread dies (with a
                // transaction, its commit waits max.block.ms, 60 s, then fails without naming the record). A record
                // larger than the topic takes is refused by the producer itself, at once, when max.request.size says
                // so:
                // it fails with its line. (max.request.size counts the record uncompressed: with -X compression.type, a
                // record that would fit compressed is refused too, unless -X max.request.size raises it.)
                settings = settings(Math.min(DEFAULT_BATCH_BYTES, facts.maxMessageBytes()), facts.maxMessageBytes());
            }
            DeliveryTally tally = new DeliveryTally();
            Delivery delivery;
            try {
                delivery = exactlyOnce ? TransactionalDelivery.claim(settings.properties(), topic, importName(expanded,
                        settings.properties()), expanded, tally, commitInterval, openJournal())
                        : new AtLeastOnceDelivery(settings.properties(), topic, tally, openJournal());
            } catch (KafkaException e) {
                throw new RunFailure("cannot create the producer: " + EngineRun.describe(e), e);
            }
            ProduceSummary summary = new ProduceSummary(topic, settings.risks(), exactlyOnce ? "committed"
                    : "acknowledged");
            RatePacer pacer = new RatePacer(rate == null ? 0 : rate);
            Object maxRequest = settings.properties().get(ProducerConfig.MAX_REQUEST_SIZE_CONFIG);
            Object bufferMemory = settings.properties().get(ProducerConfig.BUFFER_MEMORY_CONFIG);
            TopicRules rules = facts.rules().limitedTo(Math.min(maxRequest == null ? KAFKA_MAX_REQUEST_BYTES
                    : Long.parseLong(maxRequest.toString()), bufferMemory == null ? Long.MAX_VALUE
                    : Long.parseLong(bufferMemory.toString())));
            return new ProduceRun(new InputReading(expanded, parser, pacer), delivery, tally, rules, drainTimeout,
                    context.console(), summary).run();
        } finally {
            starting.close();
        }
    }

    private RecordParser withSchema(RecordParser parser) {
        if (schema == null) {
            if (confluentFraming || schemaId != null) {
                throw new IllegalArgumentException("--confluent-framing and --schema-id need --schema");
            }
            return parser;
        }
        if (format == InputFormat.LINES) {
            throw new IllegalArgumentException("--schema needs JSON values: --format json or envelope");
        }
        if (confluentFraming != (schemaId != null)) {
            throw new IllegalArgumentException("--confluent-framing and --schema-id go together: the framing carries "
                    + "the schema's ID");
        }
        return AvroValues.over(parser, schema, schemaId);
    }

    private void checkModes(List<Input> expanded) {
        if (!exactlyOnce) {
            if (name != null) {
                throw new IllegalArgumentException("--name names an --exactly-once import");
            }
            if (spec.commandLine().getParseResult().hasMatchedOption("--commit-interval")) {
                // it was ignored without a word: a user who set it believed the run commits
                throw new IllegalArgumentException("--commit-interval is how often an --exactly-once import commits; "
                        + "without --exactly-once each record is acknowledged on its own");
            }
            return;
        }
        if (expanded.stream().anyMatch(Input::isStdin)) {
            throw new IllegalArgumentException("--exactly-once needs files: standard input cannot be read again from "
                    + "where the last commit ended after a crash (use --journal to record where each line went)");
        }
        if (allowLoss) {
            throw new IllegalArgumentException("--exactly-once always sends with acks=all and idempotence: "
                    + "--allow-loss has nothing to allow");
        }
        checkTransactionSpan();
    }

    /**
     * A transaction stays open for a commit interval, or until the next record when --rate spaces them further: past
     * the producer's transaction.timeout.ms the cluster aborts it and fences the run, whose commit then fails, and so
     * would every rerun's, at the same place. Refused at half the timeout, which leaves the commit itself time.
     */
    private void checkTransactionSpan() {
        TransactionSpan span = TransactionSpan.of(properties, "-X");
        Duration most = span.longestOpen();
        String fix = "or " + span.raiseAdvice("-X " + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        if (!span.allows(commitInterval)) {
            throw new IllegalArgumentException("a --commit-interval of " + Units.duration(commitInterval)
                    + " keeps each transaction open that long, and the cluster aborts one open past the producer's "
                    + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG + ": give less than " + Units.duration(most) + ", "
                    + fix);
        }
        if (rate != null && rate > 0 && !span.allows(Duration.ofNanos((long) (1e9 / rate)))) {
            throw new IllegalArgumentException("--rate " + rate + " sends a record every " + Units.duration(
                    Duration.ofNanos((long) (1e9 / rate))) + ", and each transaction stays open until the next "
                    + "record: the cluster aborts one open past the producer's "
                    + ProducerConfig.TRANSACTION_TIMEOUT_CONFIG + "; give a rate of a record at least every "
                    + Units.duration(most) + ", " + fix);
        }
    }

    /**
     * A rate of 0 or less (or not a number) would mean no limit to the pacer: refused, since whoever typed it did not
     * ask for that (a typo's minus sign would otherwise flood the topic).
     */
    private void checkRate() {
        if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
            // the number as typed where it is whole: "not 0.0" read as if 0.0 had been typed
            String typed = rate == Math.rint(rate) && Double.isFinite(rate) ? Long.toString(rate.longValue())
                    : rate.toString();
            throw new IllegalArgumentException("--rate is records per second, a number more than 0, not " + typed
                    + " (leave --rate out for no limit)");
        }
    }

    /**
     * @param batchBytes   batch.size unless -X sets it
     * @param requestBytes max.request.size unless -X sets it; null for Kafka's default
     */
    private ProducerSettings settings(int batchBytes, Integer requestBytes) {
        ProducerSettings.Builder builder = ProducerSettings.on(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrapServers))
                .setIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 10)
                .setIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, batchBytes)
                .allowLoss(allowLoss);
        if (requestBytes != null) {
            builder.setIfAbsent(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, requestBytes);
        }
        List<String> problems = PropertyFlags.problems(properties, Map.of("producer", ProducerConfig.configDef()));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        if (properties != null && properties.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
            // it silently won over -b, so the records went to a cluster the command line did not name
            throw new IllegalArgumentException("-X " + ProducerConfig.BOOTSTRAP_SERVERS_CONFIG + " names the brokers "
                    + "a second time: give them once, with -b");
        }
        if (properties != null && properties.containsKey(ProducerConfig.TRANSACTIONAL_ID_CONFIG)) {
            // without --exactly-once nothing begins a transaction, so every send failed; with it, the import has its
            // own
            throw new IllegalArgumentException("-X " + ProducerConfig.TRANSACTIONAL_ID_CONFIG + " is not for sluice "
                    + "produce to take: --exactly-once sends in transactions of its own (one transactional ID per "
                    + "import, named by --name)");
        }
        if (properties != null) {
            properties.forEach(builder::set);
        }
        try {
            return builder.build();
        } catch (UnsafeProducerSettingsException e) {
            throw new IllegalArgumentException(e.getMessage() + ". Add --allow-loss to accept them.", e);
        }
    }

    /**
     * {@code --name}, else named after the arguments, not the files they hold now: a folder that gained a file is the
     * same import. When no import has that name yet, the topic's other default-named imports are looked at (one
     * listing), since beginning a new one would send again every line they committed:
     * <ul>
     * <li>one named after the leading part of these arguments goes on: an unquoted pattern reaches the command as the
     *     files the shell found, so after files were added the same command line has more arguments (the committed
     *     position then checks that the files done are still the first ones, and refuses in words otherwise);
     * <li>one an earlier version began under the name of its list of files (before 2026-11-29) goes on;
     * <li>one that already sent some of these files under other arguments (a file that sorts before its files was
     *     added to an unquoted pattern; a folder imported before by a pattern) is a refusal in words.
     * </ul>
     */
    private String importName(List<Input> expanded, Map<String, Object> clientProperties) throws RunFailure {
        if (name != null) {
            return name;
        }
        String prefix = "produce-" + topic + "-";
        List<String> byLeading = Inputs.prefixHashes(inputs == null ? List.of() : inputs).stream()
                .map(hash -> prefix + hash).toList();
        String byArguments = byLeading.get(byLeading.size() - 1);
        Map<String, String> positions = ImportProgress.positions(clientProperties, prefix);
        for (int k = byLeading.size(); k >= 1; k--) {
            String candidate = byLeading.get(k - 1);
            if (positions.containsKey(candidate)) {
                if (k < byLeading.size()) {
                    LoggerFactory.getLogger("sluice.produce").info("import {} was begun with the first {} of these {} "
                            + "arguments (a pattern the shell expanded before more files matched it?): it goes on "
                            + "under that name, with the files after them (--name names an import of its own)",
                            candidate, k, byLeading.size());
                }
                return candidate;
            }
        }
        String byFiles = prefix + ImportPosition.listHash(expanded);
        if (positions.containsKey(byFiles)) {
            LoggerFactory.getLogger("sluice.produce").info("import {} was begun by an earlier version under this "
                    + "name: it goes on under it", byFiles);
            return byFiles;
        }
        for (Map.Entry<String, String> other : new java.util.TreeMap<>(positions).entrySet()) {
            List<Integer> sent = ImportPosition.sentAmong(other.getValue(), expanded);
            if (!sent.isEmpty()) {
                throw new RunFailure(String.format(Locale.ROOT, "import %s, of other arguments, already sent %s: "
                        + "a new import of these %d files would send %s again. To go on with that import, run it "
                        + "with its own arguments or --name %s (a file that sorts before those it sent is refused "
                        + "there); to import only the files it has not sent, pass those alone; to send them all "
                        + "again on purpose, name a new import with --name", other.getKey(), files(expanded, sent),
                        expanded.size(), sent.size() == 1 ? "it" : "them", other.getKey()));
            }
        }
        return byArguments;
    }

    /** "day-2.txt (file 2 here)", "day-2.txt to day-3.txt (files 2 to 3 here)", or the first few and how many. */
    private static String files(List<Input> inputs, List<Integer> indexes) {
        int first = indexes.get(0);
        int last = indexes.get(indexes.size() - 1);
        if (indexes.size() == 1) {
            return inputs.get(first).name() + " (file " + (first + 1) + " here)";
        }
        if (last - first + 1 == indexes.size()) {
            return inputs.get(first).name() + " to " + inputs.get(last).name() + " (files " + (first + 1) + " to "
                    + (last + 1) + " here)";
        }
        List<String> named = indexes.stream().limit(3).map(i -> inputs.get(i).name() + " (file " + (i + 1) + ")")
                .toList();
        return String.join(", ", named) + (indexes.size() > 3 ? " and " + (indexes.size() - 3) + " more" : "")
                + " of these";
    }

    private DeliveryJournal openJournal() throws RunFailure {
        if (journal == null) {
            return null;
        }
        try {
            return DeliveryJournal.appendingTo(journal);
        } catch (java.nio.file.NoSuchFileException e) {
            // its message is the path alone: "cannot open the journal /x/j: /x/j" said nothing
            throw new RunFailure("cannot open the journal " + journal + ": its folder "
                    + journal.toAbsolutePath().getParent() + " does not exist", e);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new RunFailure("cannot open the journal " + journal + ": this user may not write it", e);
        } catch (IOException e) {
            throw new RunFailure("cannot open the journal " + journal + ": " + e.getMessage(), e);
        }
    }
}
