package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigFiles;
import io.sluice.cli.config.KeyCatalog;
import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.cli.config.SettingsReader;
import io.sluice.cli.config.Types;
import io.sluice.cli.config.Variables;
import io.sluice.merge.LatePolicy;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInput;
import io.sluice.merge.order.EventTime;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * A merge read from a file (keys: {@link MergeKeys}): the merge's configuration, its metrics endpoint, and the
 * settings as written, so that later checks can point at a line. Every problem is reported at once, with file, line
 * and column; secret values never appear in messages.
 *
 * <p>Immutable.
 */
public record MergeFile(String file, MergeConfig config, MetricsConfig metrics, Settings settings) {

    /** Whether {@code file} is a merge file: it has a top-level {@code merge} section (a mirror has none). */
    public static boolean isMerge(Path file) {
        return ConfigFiles.hasTopLevelSection(file, "merge");
    }

    public static MergeFile load(Path file, Variables variables) throws ConfigException {
        String text = ConfigFiles.read(file);
        return parse(file.toString(), text, file.toAbsolutePath().getParent(), variables);
    }

    /** The event time: of JSON values, or of Avro values by the schema file (read and checked here). */
    private static java.util.Optional<EventTime> orderBy(Settings s, Path base, Problems problems) {
        String format = s.get(MergeKeys.VALUE_FORMAT);
        boolean avro = !format.equals("json");
        java.util.Optional<String> schemaFile = s.find(MergeKeys.VALUE_SCHEMA);
        if (avro != schemaFile.isPresent()) {
            problems.add(s.at(avro ? MergeKeys.VALUE_FORMAT : MergeKeys.VALUE_SCHEMA), avro
                    ? "merge.value-format: " + format + " needs merge.value-schema, the .avsc the values were written with"
                    : "merge.value-schema is set but merge.value-format is json: set value-format: avro or "
                            + "confluent-avro, or remove value-schema");
            return java.util.Optional.empty();
        }
        try {
            if (!avro) {
                return java.util.Optional.of(EventTime.parse(s.get(MergeKeys.ORDER_BY)));
            }
            Path file = base.resolve(schemaFile.get()).toAbsolutePath().normalize();
            org.apache.avro.Schema schema;
            try {
                schema = new org.apache.avro.Schema.Parser().parse(java.nio.file.Files.readString(file));
            } catch (java.io.IOException | org.apache.avro.SchemaParseException e) {
                problems.add(s.at(MergeKeys.VALUE_SCHEMA), "merge.value-schema: " + file + " is not a readable Avro "
                        + "schema (" + e.getMessage() + ")");
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(EventTime.avro(s.get(MergeKeys.ORDER_BY), schema,
                    format.equals("confluent-avro")));
        } catch (IllegalArgumentException e) {
            problems.add(s.at(MergeKeys.ORDER_BY), MergeKeys.ORDER_BY.path() + ": " + e.getMessage());
            return java.util.Optional.empty();
        }
    }

    public static MergeFile parse(String name, String text, Path base, Variables variables) throws ConfigException {
        FileKind.MERGE.expect(name, text);
        // unknown keys are said with what the checks below find, in one pass
        Problems unknownKeys = new Problems();
        Settings s = new SettingsReader(MergeKeys.CATALOG, variables).read(name, text, unknownKeys);
        Problems problems = new Problems();
        MergeConfig.Builder b = MergeConfig.builder()
                .name(s.get(MergeKeys.NAME))
                .targetProperties(MergeKeys.TARGET.clientProperties(s, base, problems))
                .outputTopic(s.get(MergeKeys.OUTPUT_TOPIC))
                .maxWait(s.get(MergeKeys.MAX_WAIT))
                .holdBack(s.get(MergeKeys.HOLD_BACK))
                .commitInterval(s.get(MergeKeys.COMMIT_INTERVAL))
                .budgetBytes(s.get(MergeKeys.BUDGET))
                .delivery(s.get(MergeKeys.DELIVERY));
        inputs(s, base, problems).forEach(b::input);
        orderBy(s, base, problems).ifPresent(b::orderBy);
        LatePolicy late = s.get(MergeKeys.LATE);
        if (late == LatePolicy.SIDE_TOPIC && !s.isSet(MergeKeys.LATE_TOPIC)) {
            problems.add(s.at(MergeKeys.LATE), "merge.late: side-topic needs merge.late-topic, the topic late records "
                    + "go to");
        } else if (late != LatePolicy.SIDE_TOPIC && s.isSet(MergeKeys.LATE_TOPIC)) {
            problems.add(s.at(MergeKeys.LATE_TOPIC), "merge.late-topic is set but merge.late is " + Types.name(late)
                    + ": set late: side-topic, or remove late-topic");
        } else {
            b.late(late, s.get(MergeKeys.LATE_TOPIC));
        }
        s.find(MergeKeys.DEAD_LETTER_TOPIC).ifPresent(b::deadLetterTopic);
        s.find(MergeKeys.WORKERS).ifPresent(b::workers);
        s.find(MergeKeys.REPLICATION_FACTOR).ifPresent(f -> b.replicationFactor(f.shortValue()));
        MergeConfig config = null;
        if (!problems.any()) {
            try {
                config = b.build();
            } catch (IllegalArgumentException e) {
                problems.add(s.sectionAt("merge"), e.getMessage());
            }
        }
        problems.removeIf(s::followsFromUnreadable);
        problems.addAll(unknownKeys);
        problems.throwIfAny();
        return new MergeFile(name, config, MetricsConfig.from(s), s);
    }

    /**
     * The inputs {@code merge.inputs} names, in its order, each from its section; a name without a section, a section
     * not named, a name twice or fewer than two inputs are problems.
     */
    private static List<MergeInput> inputs(Settings s, Path base, Problems problems) {
        List<String> names = s.get(MergeKeys.INPUTS);
        List<String> sections = s.sectionsIn("input");
        List<MergeInput> inputs = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (!KeyCatalog.NAMED.matcher(name).matches()) {
                problems.add(s.at(MergeKeys.INPUTS), "merge.inputs: '" + name + "' cannot name a section: use "
                        + "lower-case letters, digits and '-', beginning with a letter");
            } else if (!seen.add(name)) {
                problems.add(s.at(MergeKeys.INPUTS), "merge.inputs: '" + name + "' is listed twice: each input once, "
                        + "in tie-break order");
            } else if (!sections.contains(name)) {
                problems.add(s.at(MergeKeys.INPUTS), "merge.inputs: input '" + name + "' has no section input." + name
                        + " (its bootstrap-servers and topic)" + (sections.isEmpty() ? ""
                                : "; the file has " + sections.stream().map(n -> "input." + n)
                                        .collect(Collectors.joining(", "))));
            } else {
                try {
                    inputs.add(new MergeInput(name, MergeKeys.input(name).clientProperties(s, base, problems),
                            s.get(MergeKeys.inputTopic(name))));
                } catch (IllegalArgumentException e) {
                    problems.add(s.sectionAt("input." + name), e.getMessage());
                }
            }
        }
        for (String section : sections) {
            if (!names.contains(section)) {
                problems.add(s.sectionAt("input." + section), "input." + section + " is not in merge.inputs: list it "
                        + "there (its place is its rank when event times tie), or remove the section");
            }
        }
        if (names.size() < 2) {
            problems.add(s.at(MergeKeys.INPUTS), "merge.inputs: a merge needs at least two inputs, it has "
                    + names.size());
        }
        return inputs;
    }

    /**
     * The settings of this instance's member of the owners group: its session timeout ({@code merge.session-timeout}),
     * with heartbeats at a third of it, at most every 3 s (Kafka's default interval).
     */
    public Map<String, Object> ownersMember() {
        long session = settings.get(MergeKeys.SESSION_TIMEOUT).toMillis();
        return Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, session),
                ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) Math.max(1, Math.min(3_000, session / 3)));
    }

    /** One line: what is merged from where to where. */
    public String describe() {
        return config.inputs().stream().map(i -> i.topic() + " of " + i.clientProperties().get(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + " (" + i.name() + ")").collect(Collectors.joining(
                        ", ")) + " into " + config.outputTopic() + " of " + config.targetProperties().get(
                                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + ", by " + config.orderBy().describe()
                + ", late records: " + Types.name(config.late()) + ", " + Types.name(config.delivery()) + " (merge "
                + config.name() + ")";
    }
}
