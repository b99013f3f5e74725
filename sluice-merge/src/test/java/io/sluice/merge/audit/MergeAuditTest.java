package io.sluice.merge.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.merge.Merge;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeInputs;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.state.MergeState;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The merge's audit on real clusters: a merge it passes, and planted faults it names. */
class MergeAuditTest {

    private static final long T = System.currentTimeMillis() - 60_000;

    private final KafkaCluster west = SharedKafka.cluster();
    private final KafkaCluster east = SharedKafka.second();

    /** Two partitions; east goes back in time once (late), and one of its records has no time field (dead letter). */
    private MergeConfig merged() throws Exception {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("audit-west"), Names.unique("audit-east")));
        west.createTopic(inputs.topics().get(0), 2);
        east.createTopic(inputs.topics().get(1), 2);
        for (int p = 0; p < 2; p++) {
            inputs.produce(0, p, new long[] {T + 10, T + 20, T + 30, T + 40});
            inputs.produce(1, p, new long[] {T + 15, T + 35, T + 5, T + 45});
        }
        TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), inputs.topics().get(1), 0, 1);
        MergeConfig config = inputs.merge(Names.unique("m"), west, Names.unique("audit-out"))
                .orderBy(EventTime.parse("value.at")).deadLetterTopic(Names.unique("audit-dead")).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        return config;
    }

    @Test
    void aMergeIsCompleteSortedAndUnchanged() throws Exception {
        MergeConfig config = merged();
        MergeAuditReport report = MergeAudit.run(config);
        assertTrue(report.ok(), report.firstProblem());
        long checked = report.partitions().stream().mapToLong(MergeAuditReport.Partition::checked).sum();
        long dead = report.partitions().stream().mapToLong(p -> p.asideRecords("dead-letter")).sum();
        assertEquals(17, checked, "every input record: 2 x (4 + 4), and the one without a time field");
        assertEquals(1, dead);
        assertEquals(2, report.partitions().stream().mapToLong(MergeAuditReport.Partition::lateRecords).sum());
        assertTrue(report.partitions().get(0).summary().endsWith(": OK"), report.partitions().get(0).summary());
    }

    @Test
    void aDuplicateAStrangerAndACommitBeyondTheOutputAreNamed() throws Exception {
        MergeConfig config = merged();
        Map<String, Object> client = west.clientProperties(Listener.PLAINTEXT);
        String duplicateAt;
        ConsumerRecord<byte[], byte[]> first = TestRecords.readAll(client, config.outputTopic(),
                Duration.ofSeconds(30)).stream().filter(r -> r.partition() == 0).findFirst().orElseThrow();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(new HashMap<>(client),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            // where the copy lands depends on how many transaction markers the merge's commits left before it
            long copyOffset = producer.send(new ProducerRecord<>(config.outputTopic(), 0, first.timestamp() + 1_000,
                    first.key(), first.value(), first.headers())).get().offset();
            duplicateAt = config.outputTopic() + "-0@" + copyOffset;
            producer.send(new ProducerRecord<>(config.outputTopic(), 1, T + 100, null,
                    "{\"at\":1}".getBytes(StandardCharsets.UTF_8))).get();
        }
        // partition 1's commit now claims one more west record than the output holds
        new MergeInputs(List.of("west"), List.of(west), List.of(config.inputs().get(0).topic()))
                .produce(0, 1, new long[] {T + 50});
        TopicPartition out1 = new TopicPartition(config.outputTopic(), 1);
        try (Admin admin = Admin.create(client)) {
            OffsetAndMetadata state = admin.listConsumerGroupOffsets(config.progressGroup())
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(out1);
            MergeState s = config.stateCodec().decode(state.metadata(), state.offset(), "test");
            long[] more = s.positions();
            more[0]++;
            admin.alterConsumerGroupOffsets(config.progressGroup(), Map.of(out1, new OffsetAndMetadata(s.emitted(),
                    config.stateCodec().encode(new MergeState(more, s.last(), s.emitted()))))).all()
                    .get(30, TimeUnit.SECONDS);
        }

        MergeAuditReport report = MergeAudit.run(config);
        assertFalse(report.ok());
        MergeAuditReport.Partition p0 = report.partitions().get(0);
        MergeAuditReport.Partition p1 = report.partitions().get(1);
        assertEquals(1, p0.problemCount("duplicate"), p0.summary());
        assertEquals(1, p0.problemCount("out of order"), "the copy's event time (in its value) is the first's: "
                + p0.summary());
        assertEquals(List.of(duplicateAt + " holds west offset 0 again (or a record the input does not hold "
                + "committed)"), p0.problems().get("duplicate"));
        assertEquals(1, p1.problemCount("stranger"), p1.summary());
        assertEquals(List.of("west partition 1 offset 4 is in neither the output nor the late or dead-letter topic"),
                p1.problems().get("missing"));
        assertTrue(report.firstProblem().startsWith("partition 0: "), report.firstProblem());
    }
}
