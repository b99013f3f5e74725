package io.sluice.cli.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.net.Ports;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code sluice lag} run through picocli against the real broker. */
class LagCommandTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void printsTheTableTheVerdictAndARetentionWarningWhenNothingMoves() throws Exception {
        String topic = Names.unique("lag-cmd");
        String group = Names.unique("lag-cmd-group");
        TopicPartition p0 = new TopicPartition(topic, 0);
        kafka.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", "86400000")));
        LagTestRecords.produce(kafka, p0, System.currentTimeMillis() - 3_600_000, 100);
        kafka.admin().alterConsumerGroupOffsets(group, Map.of(p0, new OffsetAndMetadata(40))).all()
                .get(30, TimeUnit.SECONDS);

        Run run = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-g", group, "-t", topic, "--interval",
                "200ms", "--watch", "--count", "2", "-X", "sasl.jaas.config=secret-hunter2");
        assertEquals(0, run.status(), run.err());
        List<List<String>> rows = Arrays.stream(run.out().split("\n")).map(l -> List.of(l.trim().split("\\s{2,}")))
                .collect(Collectors.toList());
        assertTrue(rows.contains(List.of("TOPIC", "PARTITION", "END", "COMMITTED", "LAG", "LAG BYTES", "OLDEST",
                "RATE/S", "CATCH-UP", "RETENTION LEFT")), run.out());
        // record 40, the oldest unconsumed, is 59 min 20 s old plus the time the test took
        assertTrue(rows.stream().anyMatch(r -> r.size() == 10
                && r.subList(0, 5).equals(List.of(topic, "0", "100", "40", "60"))
                && r.get(6).matches("59 min( \\d+ s)?|1 h") && r.subList(7, 10).equals(List.of("0.00", "never", "23 h"))),
                run.out());
        assertEquals(2, count(run.out(), "be caught up within 1 h? Not at this rate: the group committed nothing "
                + "between the samples (it is stopped, or commits less often than --interval, as an archive does when "
                + "its files roll: a longer --interval, or --metrics-url of a running instance, measures its rate); "
                + "1 h needs 0.02 rec/s."), run.out());
        assertEquals(2, count(run.out(), "Warning: retention deletes unconsumed records of " + p0 + " in about 23 h"),
                run.out());
        assertFalse(run.out().contains("hunter2") || run.err().contains("hunter2"), "secrets never printed");
    }

    /**
     * A broker is down and one partition has no leader: the report used to fail as a whole ("could not read offsets:
     * no answer within 30 s") when an operator needs it most. Now that partition's row says it is unknown and why,
     * and the figures are those of the partitions that answered.
     */
    @Test
    void aPartitionWithoutALeaderIsShownUnknownAndTheOthersStillCount() throws Exception {
        try (KafkaCluster two = KafkaCluster.builder().name("lag-leaderless").start()) {
            // the group's coordinator on the broker that stays: its offsets topic is made before the second joins
            two.admin().listConsumerGroupOffsets("sluice-warm-up").partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
            two.addBroker(null);
            String topic = Names.unique("lag-leaderless");
            String group = Names.unique("lag-leaderless-group");
            TopicPartition p0 = new TopicPartition(topic, 0);
            TopicPartition p1 = new TopicPartition(topic, 1);
            two.createTopic(new NewTopic(topic, Map.of(0, List.of(1), 1, List.of(2))));
            LagTestRecords.produce(two, p0, System.currentTimeMillis(), 100);
            LagTestRecords.produce(two, p1, System.currentTimeMillis(), 100);
            two.admin().alterConsumerGroupOffsets(group, Map.of(p0, new OffsetAndMetadata(40),
                    p1, new OffsetAndMetadata(90))).all().get(30, TimeUnit.SECONDS);
            two.node(2).stop();

            Run run = run(new LagCommand(), "-b", two.bootstrapServers(), "-g", group, "-t", topic, "--interval",
                    "200ms");
            assertEquals(0, run.status(), run.err());
            List<List<String>> rows = Arrays.stream(run.out().split("\n"))
                    .map(l -> List.of(l.trim().split("\\s{2,}"))).collect(Collectors.toList());
            assertTrue(rows.stream().anyMatch(r -> r.size() == 10
                    && r.subList(0, 5).equals(List.of(topic, "0", "100", "40", "60"))), run.out());
            assertTrue(rows.contains(List.of(topic, "1", "?", "?", "?", "?", "?", "?", "?", "?")), run.out());
            assertTrue(run.out().contains("Total lag 60 records"), run.out());
            assertTrue(run.out().contains("Can the lag of 60 records"), run.out());
            assertTrue(run.out().contains("(in the 1 partition whose offsets are known; 1 is not)"), run.out());
            assertTrue(run.out().contains("Warning: " + p1 + ": its offsets are unknown, no leader (the brokers that "
                    + "hold it are down, or it lost every in-sync replica); it is left out of the figures"),
                    run.out());
        }
    }

    @Test
    void aGroupWithNoCommittedOffsetIsSaidToBeOneNotAGroupThatProcessedNothing() throws Exception {
        String topic = Names.unique("lag-none");
        TopicPartition p0 = new TopicPartition(topic, 0);
        kafka.createTopic(topic, 1);
        LagTestRecords.produce(kafka, p0, System.currentTimeMillis(), 10);
        Run run = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-g", "no-such-group-" + topic, "-t", topic,
                "--interval", "100ms");
        assertEquals(0, run.status(), run.err());
        assertTrue(run.out().contains("Note: group no-such-group-" + topic + " has no committed offset on this "
                + "cluster: it has not committed yet, or its name is not this one; the lag counts every record"),
                run.out());
    }

    @Test
    void missingInputsAreUsageErrorsAndAProtocolMismatchIsCaughtBeforeAnyClient() {
        Run noGroup = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-t", "orders");
        assertEquals(2, noGroup.status());
        assertTrue(noGroup.err().startsWith("--group is required: the consumer group whose lag to show"),
                noGroup.err());

        Run file = run(new LagCommand(), "pipeline.yaml", "-g", "g", "-t", "orders");
        assertEquals(2, file.status());
        assertTrue(file.err().startsWith("this command takes no pipeline file here"), file.err());

        Run tls = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-g", "g", "-t", "orders", "-X",
                "security.protocol=SSL");
        assertEquals(2, tls.status());
        assertEquals("sluice lag: " + kafka.bootstrapServers() + ": this port speaks plain TCP, not TLS, but "
                + "security.protocol is SSL: set security.protocol=PLAINTEXT", tls.err().strip());

        // a typo in -X was passed on and ignored: the run went over plaintext without a word
        Run typo = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-g", "g", "-t", "orders", "-X",
                "secuirty.protocol=SSL");
        assertEquals(2, typo.status());
        assertTrue(typo.err().startsWith("-X secuirty.protocol: not a Kafka consumer, admin client or producer setting; "
                + "did you mean 'security.protocol'?"), typo.err());

        Run nobody = run(new LagCommand(), "-b", "127.0.0.1:" + Ports.free(), "-g", "g", "-t", "orders");
        assertEquals(1, nobody.status());
        assertTrue(nobody.err().startsWith("sluice lag: no broker answers: 127.0.0.1:"), nobody.err());

        String present = Names.unique("lag-present");
        kafka.createTopic(present, 1);
        Run missing = run(new LagCommand(), "-b", kafka.bootstrapServers(), "-g", "g", "-t",
                present + ",no-such-topic-here", "--interval", "10ms");
        assertEquals(1, missing.status());
        assertTrue(missing.err().startsWith("sluice lag: topic no-such-topic-here does not exist on "),
                missing.err());
    }

    @Test
    void aPipelineReaderSuppliesInputsThatFlagsOverride() throws Exception {
        String topic = Names.unique("lag-pipeline");
        kafka.createTopic(topic, 1);
        LagCommand command = new LagCommand(path -> new LagInputs("from-" + path.getFileName(), List.of(topic),
                Map.of("bootstrap.servers", kafka.bootstrapServers()), List.of()), false);
        new CommandLine(command).parseArgs("pipeline.yaml", "--group", "override");
        LagInputs inputs = command.inputs();
        assertEquals("override", inputs.group());
        assertEquals(List.of(topic), inputs.topics());
        assertEquals(Path.of("pipeline.yaml"), command.pipeline);
    }

    private record Run(int status, String out, String err) {
    }

    private static Run run(LagCommand command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command).setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        int status = cli.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    private static int count(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
