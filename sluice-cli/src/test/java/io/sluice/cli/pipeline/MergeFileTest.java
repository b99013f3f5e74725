package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.cli.config.ConfigException;
import io.sluice.cli.config.ConfigProblem;
import io.sluice.cli.config.Variables;
import io.sluice.merge.LatePolicy;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Merge files: every key read into the merge's configuration, and mistakes reported all at once at their place. */
class MergeFileTest {

    private static MergeFile parse(String text) throws ConfigException {
        return MergeFile.parse("merge.yaml", text, Path.of("."), Variables.of(Map.of("EAST", "east:9092")));
    }

    private static List<String> problems(String text) {
        ConfigException e = assertThrows(ConfigException.class, () -> parse(text));
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    @Test
    void everyKeyIsRead() throws Exception {
        MergeFile file = parse("""
                merge:
                  name: clicks
                  inputs: [west, east]
                  order-by: value.event.time
                  late: side-topic
                  late-topic: clicks-late
                  dead-letter-topic: clicks-dlq
                  delivery: at-least-once
                  max-wait: 5s
                  session-timeout: 9s
                  commit-interval: 250ms
                  budget: 64MiB
                  workers: 3
                  replication-factor: 2
                input:
                  east:
                    bootstrap-servers: ${EAST}
                    topic: clicks-e
                  west:
                    bootstrap-servers: [west1:9092, west2:9092]
                    topic: clicks-w
                    sasl:
                      mechanism: PLAIN
                      username: merger
                      password: pw
                    properties:
                      client.rack: rack-1
                target:
                  bootstrap-servers: central:9092
                  topic: clicks-merged
                  properties:
                    compression.type: zstd
                metrics:
                  port: 9400
                  address: 0.0.0.0
                """);
        MergeConfig c = file.config();
        assertEquals("clicks", c.name());
        assertEquals(List.of("west", "east"), c.inputs().stream().map(MergeInput::name).toList(),
                "in merge.inputs' order, not the sections'");
        MergeInput west = c.inputs().get(0);
        assertEquals("clicks-w", west.topic());
        assertEquals("west1:9092,west2:9092", west.clientProperties().get("bootstrap.servers"));
        assertEquals("SASL_PLAINTEXT", west.clientProperties().get("security.protocol"));
        assertEquals("PLAIN", west.clientProperties().get("sasl.mechanism"));
        assertEquals("rack-1", west.clientProperties().get("client.rack"));
        assertEquals("east:9092", c.inputs().get(1).clientProperties().get("bootstrap.servers"));
        assertEquals(null, c.inputs().get(1).clientProperties().get("security.protocol"));
        assertEquals("central:9092", c.targetProperties().get("bootstrap.servers"));
        assertEquals("zstd", c.targetProperties().get("compression.type"));
        assertEquals("clicks-merged", c.outputTopic());
        assertEquals("value.event.time", c.orderBy().describe());
        assertEquals(LatePolicy.SIDE_TOPIC, c.late());
        assertEquals(Optional.of("clicks-late"), c.lateTopic());
        assertEquals(Optional.of("clicks-dlq"), c.deadLetterTopic());
        assertEquals(MergeDelivery.AT_LEAST_ONCE, c.delivery());
        assertEquals("sluice-merge.clicks.owners", c.stateGroup(), "at least once, the owners group keeps the state");
        assertEquals(Duration.ofSeconds(5), c.maxWait());
        assertEquals(Duration.ofMillis(250), c.commitInterval());
        assertEquals(64L << 20, c.budgetBytes());
        assertEquals(3, c.workers());
        assertEquals(Optional.of((short) 2), c.replicationFactor());
        assertEquals(Map.of("session.timeout.ms", 9_000, "heartbeat.interval.ms", 3_000), file.ownersMember(),
                "the owners group's member hands over after the session timeout");
        assertEquals(9400, file.metrics().port());
        assertEquals("0.0.0.0", file.metrics().address());
    }

    @Test
    void theDefaultsAreTheMergesOwn() throws Exception {
        MergeFile file = parse("""
                merge:
                  name: m
                  inputs: a,b
                input:
                  a: {bootstrap-servers: "a:1", topic: t}
                  b: {bootstrap-servers: "b:1", topic: t}
                target: {bootstrap-servers: "c:1", topic: out}
                """);
        MergeConfig c = file.config();
        assertEquals(Map.of("session.timeout.ms", 45_000, "heartbeat.interval.ms", 3_000), file.ownersMember(),
                "Kafka's own defaults");
        MergeConfig library = MergeConfig.builder().name("m").input(c.inputs().get(0)).input(c.inputs().get(1))
                .targetProperties(c.targetProperties()).outputTopic("out").build();
        assertEquals(library.orderBy().describe(), c.orderBy().describe());
        assertEquals(library.late(), c.late());
        assertEquals(MergeDelivery.EXACTLY_ONCE, c.delivery());
        assertEquals(library.delivery(), c.delivery());
        assertEquals(library.maxWait(), c.maxWait());
        assertEquals(library.commitInterval(), c.commitInterval());
        assertEquals(library.budgetBytes(), c.budgetBytes());
        assertEquals(library.workers(), c.workers());
        assertEquals(Optional.empty(), c.replicationFactor());
        assertEquals(null, parse("""
                merge: {name: m, inputs: [a, b]}
                input:
                  a: {bootstrap-servers: "a:1", topic: t}
                  b: {bootstrap-servers: "b:1", topic: t}
                target: {bootstrap-servers: "c:1", topic: out}
                """).metrics().port());
    }

    @Test
    void mistakesOfKeysAndValuesAreReportedAtOnce() {
        assertEquals(List.of(
                "merge.yaml:1:1: missing section 'target' (the cluster and topic the merged records go to); it "
                        + "needs target.bootstrap-servers, target.topic",
                "merge.yaml:3:13: merge.max-wait: 'soon' is not a duration; write it like 500ms, 10s, 5m, 1h or 1h30m",
                "merge.yaml:4:3: unknown key 'dead-leter-topic' in merge; did you mean 'dead-letter-topic'?",
                "merge.yaml:9:5: unknown key 'topik' in input.west; did you mean 'topic'?",
                "merge.yaml:10:3: input.east: missing required key 'topic' (the input's topic)"),
                problems("""
                        merge:
                          name: m
                          max-wait: soon
                          dead-leter-topic: dlq
                          inputs: [west, east]
                        input:
                          west:
                            bootstrap-servers: a:1
                            topik: t
                          east:
                            bootstrap-servers: b:1
                        """));
    }

    @Test
    void mistakesAcrossKeysAreReportedAtOnce() {
        assertEquals(List.of(
                "merge.yaml:3:11: merge.inputs: input 'north' has no section input.north (its bootstrap-servers and "
                        + "topic); the file has input.east, input.south, input.west",
                "merge.yaml:3:11: merge.inputs: 'east' is listed twice: each input once, in tie-break order",
                "merge.yaml:4:13: merge.order-by: order-by 'event' is not understood: use 'timestamp' (the records' "
                        + "timestamps) or 'value.<field>' (a field of JSON values, e.g. value.event.time, holding "
                        + "epoch milliseconds or ISO-8601 text)",
                "merge.yaml:5:9: merge.late: side-topic needs merge.late-topic, the topic late records go to",
                "merge.yaml:13:3: input.south is not in merge.inputs: list it there (its place is its rank when "
                        + "event times tie), or remove the section"),
                problems("""
                        merge:
                          name: m
                          inputs: [west, east, north, east]
                          order-by: event
                          late: side-topic
                        input:
                          west:
                            bootstrap-servers: a:1
                            topic: t
                          east:
                            bootstrap-servers: b:1
                            topic: t
                          south:
                            bootstrap-servers: c:1
                            topic: t
                        target:
                          bootstrap-servers: c:1
                          topic: out
                        """));
        assertEquals(List.of("merge.yaml:3:11: merge.inputs: a merge needs at least two inputs, it has 1",
                "merge.yaml:4:15: merge.late-topic is set but merge.late is flag: set late: side-topic, or remove "
                        + "late-topic",
                "merge.yaml:8:18: input.west.properties: 'group.id' cannot be set here: a merge reads its inputs "
                        + "without a group: its positions are committed with the output"), problems("""
                        merge:
                          name: m
                          inputs: [west]
                          late-topic: x
                        input:
                          west:
                            bootstrap-servers: a:1
                            properties: {group.id: g}
                            topic: t
                        target: {bootstrap-servers: "c:1", topic: out}
                        """));
    }

    @Test
    void valuesOfTheWrongTypeAreReportedWithTheMistakesAcrossKeys() {
        // a user fixed the durations, then learnt of the missing section and late topic, one validate at a time
        assertEquals(List.of(
                "merge.yaml:3:11: merge.inputs: input 'north' has no section input.north (its bootstrap-servers and "
                        + "topic); the file has input.east, input.west",
                "merge.yaml:4:9: merge.late: side-topic needs merge.late-topic, the topic late records go to",
                "merge.yaml:5:20: merge.commit-interval: '5 parsecs' is not a duration; write it like 500ms, 10s, 5m, "
                        + "1h or 1h30m",
                "merge.yaml:6:13: merge.max-wait: '-3s' is not a duration; write it like 500ms, 10s, 5m, 1h or 1h30m"),
                problems("""
                        merge:
                          name: m
                          inputs: [west, east, north]
                          late: side-topic
                          commit-interval: 5 parsecs
                          max-wait: -3s
                        input:
                          west: {bootstrap-servers: "a:1", topic: t}
                          east: {bootstrap-servers: "b:1", topic: t}
                        target: {bootstrap-servers: "c:1", topic: out}
                        """));
        // a choice decides what the other keys may be: its typo is said alone, not with guesses from its default
        assertEquals(List.of("merge.yaml:4:9: merge.late: 'side-topik' is not one of flag, side-topic, stop; "
                + "did you mean 'side-topic'?"), problems("""
                        merge:
                          name: m
                          inputs: [west, east]
                          late: side-topik
                          late-topic: late
                        input:
                          west: {bootstrap-servers: "a:1", topic: t}
                          east: {bootstrap-servers: "b:1", topic: t}
                        target: {bootstrap-servers: "c:1", topic: out}
                        """));
    }

    @Test
    void anAvroTimeFieldIsCheckedAgainstItsSchemaBeforeTheMergeStarts() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("merge-avro");
        java.nio.file.Files.writeString(dir.resolve("click.avsc"), """
                {"type": "record", "name": "Click", "fields": [{"name": "at", "type": "long"}]}""");
        String file = """
                merge:
                  name: clicks
                  inputs: [west, east]
                  order-by: value.%s
                  value-format: confluent-avro
                  value-schema: click.avsc
                input:
                  west:
                    bootstrap-servers: west:9092
                    topic: clicks
                  east:
                    bootstrap-servers: east:9092
                    topic: clicks
                target:
                  bootstrap-servers: central:9092
                  topic: clicks-merged
                """;
        MergeFile merge = MergeFile.parse("merge.yaml", file.formatted("at"), dir, Variables.of(Map.of()));
        assertEquals("value.at", merge.config().orderBy().describe());
        ConfigException e = assertThrows(ConfigException.class,
                () -> MergeFile.parse("merge.yaml", file.formatted("when"), dir, Variables.of(Map.of())));
        assertEquals(List.of("merge.yaml:4:13: merge.order-by: order-by value.when: the schema's record 'Click' has no "
                + "field 'when' (it has [at])"), e.problems().stream().map(ConfigProblem::toString).toList());
        ConfigException noSchema = assertThrows(ConfigException.class, () -> MergeFile.parse("merge.yaml",
                file.formatted("at").replace("  value-schema: click.avsc\n", ""), dir, Variables.of(Map.of())));
        assertEquals(1, noSchema.problems().size());
        org.junit.jupiter.api.Assertions.assertTrue(noSchema.problems().get(0).toString().contains(
                "merge.value-format: confluent-avro needs merge.value-schema"), noSchema.problems().toString());
    }
}
