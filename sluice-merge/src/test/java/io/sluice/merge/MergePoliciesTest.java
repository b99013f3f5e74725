package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.state.CommittedStates;
import io.sluice.merge.topics.MergeTopics;
import io.sluice.merge.write.MergeHeaders;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import io.sluice.testkit.kafka.TimestamplessRecord;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Late records under each policy, records without an event time, and inputs that cannot be merged. */
class MergePoliciesTest {

    private static final long T = System.currentTimeMillis() - 60_000;

    private final KafkaCluster west = SharedKafka.cluster();
    private final KafkaCluster east = SharedKafka.second();

    /** West is in order; east goes back in time once (its offset 2): behind what was already emitted from west. */
    private MergeInputs inputs(int partitions) {
        MergeInputs inputs = empty("late", partitions);
        inputs.produce(0, 0, new long[] {T + 10, T + 20, T + 30, T + 40});
        inputs.produce(1, 0, new long[] {T + 15, T + 35, T + 5, T + 45});
        return inputs;
    }

    @Test
    void aLateRecordIsFlaggedInPlaceByDefault() throws Exception {
        MergeInputs inputs = inputs(1);
        String output = Names.unique("late-flag");
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, output).build(),
                MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            assertEquals(1, merge.counts().late());
        }
        List<ConsumerRecord<byte[], byte[]>> out = read(output);
        assertEquals(List.of("west:0:0", "east:0:0", "west:0:1", "west:0:2", "east:0:1", "east:0:2", "west:0:3",
                "east:0:3"), out.stream().map(r -> header(r, MergeHeaders.SOURCE)).toList());
        assertEquals(Long.toString(T + 35), header(out.get(5), MergeHeaders.LATE), "behind the last emitted time");
        assertEquals(7, out.stream().filter(r -> r.headers().lastHeader(MergeHeaders.LATE) == null).count());
    }

    @Test
    void aLateRecordGoesToTheLateTopicInTheSameTransactionUnderSideTopic() throws Exception {
        MergeInputs inputs = inputs(1);
        String output = Names.unique("late-side");
        String lateTopic = Names.unique("late-side-aside");
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, output)
                .late(LatePolicy.SIDE_TOPIC, lateTopic).build(), MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        assertEquals(List.of("west:0:0", "east:0:0", "west:0:1", "west:0:2", "east:0:1", "west:0:3", "east:0:3"),
                read(output).stream().map(r -> header(r, MergeHeaders.SOURCE)).toList());
        assertEquals(List.of("east:0:2"), read(lateTopic).stream().map(r -> header(r, MergeHeaders.SOURCE)).toList());
    }

    /**
     * Side topics made before are taken as they are, and may take less than the output: a compacted dead-letter topic
     * is refused at start in words; a late record the late topic would refuse (older than its
     * message.timestamp.before.max.ms) is set aside with why, verify counts it in its place, and the merge goes on
     * (the broker refused it, the transaction failed, and every start met the same record: a review).
     */
    @Test
    void sideTopicsMadeBeforeAreCheckedACompactedOneIsRefusedAndALateRecordTheirsRefusesIsSetAside() throws Exception {
        MergeInputs inputs = inputs(1);
        String compacted = Names.unique("dead-compacted");
        west.createTopic(new NewTopic(compacted, java.util.Optional.of(1), java.util.Optional.empty())
                .configs(Map.of("cleanup.policy", "compact")));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Merge.start(
                inputs.merge(Names.unique("m"), west, Names.unique("late-out")).deadLetterTopic(compacted).build(),
                MergeInputs.quickMember()));
        assertTrue(refused.getMessage().startsWith("the dead-letter topic '" + compacted + "' is compacted "
                + "(cleanup.policy compact)"), refused.getMessage());

        String strict = Names.unique("late-strict");
        west.createTopic(new NewTopic(strict, java.util.Optional.of(1), java.util.Optional.empty())
                .configs(Map.of("message.timestamp.before.max.ms", "30000")));
        String dead = Names.unique("late-dead");
        String output = Names.unique("late-strict-out");
        MergeConfig config = inputs.merge(Names.unique("m"), west, output).late(LatePolicy.SIDE_TOPIC, strict)
                .deadLetterTopic(dead).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        assertEquals(List.of(), read(strict));
        List<ConsumerRecord<byte[], byte[]>> aside = read(dead);
        assertEquals(List.of("east:0:2"), aside.stream().map(r -> header(r, MergeHeaders.SOURCE)).toList());
        assertTrue(header(aside.get(0), MergeHeaders.REASON).startsWith("late, and the late topic would refuse it: its "
                + "timestamp " + (T + 5) + " is "), header(aside.get(0), MergeHeaders.REASON));
        assertTrue(header(aside.get(0), MergeHeaders.REASON).contains("more than the late topic '" + strict + "' accepts "
                + "(message.timestamp.before.max.ms 30000)"), header(aside.get(0), MergeHeaders.REASON));
        assertEquals(7, read(output).size(), "the others merged");
        MergeAuditReport audit = MergeAudit.run(config);
        assertTrue(audit.ok(), audit.firstProblem()); // a letter without its value is checked by its place only
    }

    @Test
    void aLateRecordStopsTheMergeInWordsUnderStop() throws Exception {
        MergeInputs inputs = inputs(1);
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, Names.unique("late-stop"))
                .late(LatePolicy.STOP, null).build(), MergeInputs.quickMember())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> merge.awaitEnd(Duration.ofSeconds(60)));
            assertTrue(e.getCause().getMessage().startsWith("input 'east' partition 0 offset 2 has event time "
                    + java.time.Instant.ofEpochMilli(T + 5) + " (" + (T + 5) + "), below "
                    + java.time.Instant.ofEpochMilli(T + 35) + " (" + (T + 35) + ") already emitted to "),
                    e.getCause().getMessage());
            assertTrue(e.getCause().getMessage().contains("(late: stop), 0.03 s behind."), e.getCause().getMessage());
        }
    }

    @Test
    void recordsWithoutTheTimeFieldGoToTheDeadLetterTopicWithTheReason() throws Exception {
        MergeInputs inputs = empty("dead", 1);
        inputs.produce(0, 0, new long[] {T + 1, T + 2}); // values {"at": <time>}
        TestRecords.produceNumbered(east.clientProperties(Listener.PLAINTEXT), inputs.topics().get(1), 0, 2);
        String output = Names.unique("dead-out");
        String dead = Names.unique("dead-letters");
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, output).orderBy(EventTime.parse(
                "value.at")).deadLetterTopic(dead).build(), MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            assertEquals(2, merge.counts().deadLettered());
            String first = merge.counts().firstDeadLetter().orElseThrow();
            assertTrue(first.startsWith("input 'east' partition 0 offset 0: ") && first.contains("value.at"), first);
        }
        assertEquals(List.of("west:0:0", "west:0:1"), read(output).stream().map(r -> header(r, MergeHeaders.SOURCE))
                .toList());
        List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
        assertEquals(List.of("east:0:0", "east:0:1"), letters.stream().map(r -> header(r, MergeHeaders.SOURCE))
                .toList());
        assertTrue(header(letters.get(0), MergeHeaders.REASON).contains("value.at"), header(letters.get(0),
                MergeHeaders.REASON));
    }

    /**
     * A dead-letter topic made before that takes less than the inputs (max.message.bytes 1,000 here, a broker's 1 MiB
     * in life): a dead letter too large for it is set aside without its value, which stays in its input, and verify
     * checks it by its place (the broker refused it, the transaction failed, and every start met the same record).
     */
    @Test
    void aDeadLetterTooLargeForItsTopicIsSetAsideWithoutItsValue() throws Exception {
        MergeInputs inputs = empty("dead-large", 1);
        inputs.produce(0, 0, new long[] {T + 1, T + 2}); // values {"at": <time>}
        try (var producer = new KafkaProducer<>(east.clientProperties(Listener.PLAINTEXT), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(inputs.topics().get(1), 0, T + 3, null,
                    ("{\"other\":\"" + "x".repeat(3_000) + "\"}").getBytes(StandardCharsets.UTF_8))).get();
        }
        String dead = Names.unique("dead-small");
        west.createTopic(new NewTopic(dead, java.util.Optional.of(1), java.util.Optional.empty())
                .configs(Map.of("max.message.bytes", "1000")));
        MergeConfig config = inputs.merge(Names.unique("m"), west, Names.unique("dead-large-out"))
                .orderBy(EventTime.parse("value.at")).deadLetterTopic(dead).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
        assertEquals(List.of("east:0:0"), letters.stream().map(r -> header(r, MergeHeaders.SOURCE)).toList());
        assertEquals(null, letters.get(0).value(), "the value stays in its input");
        String reason = header(letters.get(0), MergeHeaders.REASON);
        assertTrue(reason.contains("value.at") && reason.contains("; set aside without its value, since it is ")
                && reason.contains("bytes, more than the max.message.bytes of the dead-letter topic '" + dead
                + "', 1000"), reason);
        MergeAuditReport audit = MergeAudit.run(config);
        assertTrue(audit.ok(), audit.firstProblem());
    }

    /**
     * A record with no event time and a timestamp hours ahead (an input that takes such timestamps): the dead-letter
     * topic, made with the broker's limit of an hour ahead, refused it, the transaction failed, and every restart met
     * the same record (a review). The broker stamps the dead letter now; a header keeps its own timestamp.
     */
    @Test
    void aDeadLetterStampedHoursAheadIsSetAsideWithItsTimestampInAHeader() throws Exception {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("ahead-west"), Names.unique("ahead-east")));
        west.createTopic(inputs.topics().get(0), 1);
        east.createTopic(new NewTopic(inputs.topics().get(1), 1, (short) 1).configs(Map.of(
                "message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE))));
        inputs.produce(0, 0, new long[] {T + 1, T + 2});
        long ahead = System.currentTimeMillis() + 2 * 3_600_000L;
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(east.clientProperties(Listener.PLAINTEXT),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(inputs.topics().get(1), 0, ahead, null,
                    "{\"no-time\": 1}".getBytes(java.nio.charset.StandardCharsets.UTF_8))).get();
        }
        String output = Names.unique("ahead-out");
        String dead = Names.unique("ahead-dead");
        try (Merge merge = Merge.start(inputs.merge(Names.unique("m"), west, output).orderBy(EventTime.parse(
                "value.at")).deadLetterTopic(dead).build(), MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            assertEquals(1, merge.counts().deadLettered());
        }
        assertEquals(2, read(output).size());
        List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
        assertEquals(1, letters.size());
        assertEquals(Long.toString(ahead), header(letters.get(0), MergeHeaders.TIMESTAMP));
        assertTrue(letters.get(0).timestamp() < ahead - 3_600_000L, "stamped by the broker: "
                + letters.get(0).timestamp());
    }

    /**
     * An output the merge creates takes any timestamp, so what is merged does not depend on when the merge runs: with
     * the broker's default limit (an hour ahead of its clock) a record stamped two hours ahead went to the dead
     * letters, and a replay two hours later would have merged it (a review).
     */
    @Test
    void anOutputTheMergeCreatesTakesATimestampHoursAhead() throws Exception {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("later-west"), Names.unique("later-east")));
        west.createTopic(new NewTopic(inputs.topics().get(0), 1, (short) 1).configs(Map.of(
                "message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE))));
        east.createTopic(inputs.topics().get(1), 1);
        long ahead = System.currentTimeMillis() + 2 * 3_600_000L;
        inputs.produce(0, 0, new long[] {T + 1, ahead});
        inputs.produce(1, 0, new long[] {T + 2});
        String output = Names.unique("later-out");
        String dead = Names.unique("later-dead");
        mergedToTheEnd(inputs, output, dead);
        assertEquals(List.of("west:0:0", "east:0:0", "west:0:1"), sources(read(output)));
        assertEquals(List.of(), read(dead));
        assertEquals(Long.toString(Long.MAX_VALUE), west.admin().describeConfigs(List.of(new ConfigResource(
                ConfigResource.Type.TOPIC, output))).all().get(30, TimeUnit.SECONDS).values().iterator().next()
                .get("message.timestamp.after.max.ms").value());
    }

    /**
     * An input topic given more partitions while the merge runs: partition p of every input merges into partition p of
     * the output, for the count the merge started with, so the new partition's records went unmerged without a word,
     * and a bounded run ended done. Now a running merge stops, naming the input, and a bounded run that finished
     * before its readers saw the growth fails at its end.
     */
    @Test
    void anInputGivenMorePartitionsWhileTheMergeRunsStopsItInWords() throws Exception {
        for (boolean bounded : new boolean[] {false, true}) {
            MergeInputs inputs = empty(bounded ? "grown-bounded" : "grown", 1);
            inputs.produce(0, 0, new long[] {T + 1, T + 3});
            inputs.produce(1, 0, new long[] {T + 2});
            Map<String, Object> quickMetadata = new HashMap<>(west.clientProperties(Listener.PLAINTEXT));
            quickMetadata.put("metadata.max.age.ms", 500);
            MergeConfig config = MergeConfig.builder().name(Names.unique("m"))
                    .targetProperties(west.clientProperties(Listener.PLAINTEXT)).outputTopic(Names.unique("grown-out"))
                    .commitInterval(Duration.ofMillis(200)).untilEnd(bounded)
                    .input(new MergeInput("west", quickMetadata, inputs.topics().get(0)))
                    .input(new MergeInput("east", east.clientProperties(Listener.PLAINTEXT), inputs.topics().get(1)))
                    .build();
            String why;
            try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
                west.admin().createPartitions(Map.of(inputs.topics().get(0), NewPartitions.increaseTo(2))).all()
                        .get(30, TimeUnit.SECONDS);
                if (bounded) {
                    // the readers may or may not see the growth before the end: either way the run fails in words
                    why = assertThrows(Exception.class, () -> merge.awaitEnd(Duration.ofSeconds(60))).getMessage();
                } else {
                    why = assertThrows(java.util.concurrent.ExecutionException.class,
                            () -> merge.failure().get(30, TimeUnit.SECONDS)).getCause().getMessage();
                }
            }
            assertTrue(why.contains("input 'west': topic '" + inputs.topics().get(0) + "' has 2 partitions now, the "
                    + "merge started with 1"), why);
        }
    }

    /**
     * An input record without a timestamp (CreateTime -1, as clients other than Java's write when the application sets
     * none): ordered by timestamp it has no event time and is a dead letter with the reason; ordered by a field of its
     * value it is merged, stamped by the broker with a header keeping its -1, and verify compares it as it was. The
     * Java producer refuses a negative timestamp: the merge stopped at that record at every start.
     */
    @Test
    void aRecordWithoutATimestampIsADeadLetterByTimestampAndMergedByAValueField() throws Exception {
        for (boolean byValue : new boolean[] {false, true}) {
            MergeInputs inputs = empty(byValue ? "untimed-value" : "untimed-ts", 1);
            inputs.produce(0, 0, new long[] {T + 1, T + 3});
            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(east.clientProperties(
                    Listener.PLAINTEXT), new ByteArraySerializer(), new ByteArraySerializer())) {
                producer.send(new TimestamplessRecord(inputs.topics().get(1), 0, null,
                        ("{\"at\":" + (T + 2) + "}").getBytes(StandardCharsets.UTF_8))).get();
            }
            String output = Names.unique("untimed-out");
            String dead = Names.unique("untimed-dead");
            MergeConfig.Builder config = inputs.merge(Names.unique("m"), west, output).deadLetterTopic(dead);
            if (byValue) {
                config.orderBy(EventTime.parse("value.at"));
            }
            MergeConfig built = config.build();
            try (Merge merge = Merge.start(built, MergeInputs.quickMember())) {
                assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            }
            if (byValue) {
                List<ConsumerRecord<byte[], byte[]>> merged = read(output);
                assertEquals(List.of("west:0:0", "east:0:0", "west:0:1"), sources(merged));
                assertEquals("-1", header(merged.get(1), MergeHeaders.TIMESTAMP));
                assertTrue(merged.get(1).timestamp() > T, "stamped by the broker");
                assertEquals(List.of(), read(dead));
                MergeAuditReport audit = MergeAudit.run(built);
                assertTrue(audit.ok(), () -> "compared with its -1: " + audit.firstProblem());
            } else {
                assertEquals(List.of("west:0:0", "west:0:1"), sources(read(output)));
                List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
                assertEquals(List.of("east:0:0"), sources(letters));
                assertTrue(header(letters.get(0), MergeHeaders.REASON).contains("it has no timestamp (-1: its "
                        + "producer set none)"), header(letters.get(0), MergeHeaders.REASON));
            }
        }
    }

    @Test
    void recordsTheOutputWouldRefuseAreDeadLettersWithoutTheirValueAndTheMergeGoesOn() throws Exception {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("refused-west"), Names.unique("refused-east")));
        // the inputs take what the output will not: a timestamp two hours ahead, a record of 1.5 MB
        west.createTopic(new NewTopic(inputs.topics().get(0), 1, (short) 1).configs(Map.of(
                "message.timestamp.after.max.ms", Long.toString(Long.MAX_VALUE))));
        east.createTopic(new NewTopic(inputs.topics().get(1), 1, (short) 1).configs(Map.of(
                "max.message.bytes", Integer.toString(4 << 20))));
        String output = Names.unique("refused-out");
        west.createTopic(output, 1); // exists already, with the broker's default limits
        inputs.produce(0, 0, new long[] {T + 1, System.currentTimeMillis() + 2 * 3_600_000L});
        Map<String, Object> big = new HashMap<>(east.clientProperties(Listener.PLAINTEXT));
        big.put("max.request.size", 4 << 20);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(big, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(inputs.topics().get(1), 0, T + 2, null, new byte[1_500_000])).get();
            producer.send(new ProducerRecord<>(inputs.topics().get(1), 0, T + 3, null, new byte[10])).get();
        }
        String dead = Names.unique("refused-dead");
        MergeConfig config = mergedToTheEnd(inputs, output, dead);
        assertEquals(List.of("west:0:0", "east:0:1"), sources(read(output)));
        List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
        assertEquals(List.of("east:0:0", "west:0:1"), sources(letters));
        assertTrue(header(letters.get(0), MergeHeaders.REASON).contains("more than the max.message.bytes "
                + "of the output topic"), header(letters.get(0), MergeHeaders.REASON));
        assertTrue(header(letters.get(1), MergeHeaders.REASON).contains("in the future"), header(letters.get(1),
                MergeHeaders.REASON));
        assertEquals(null, letters.get(0).value(), "the value stays in its input");
        MergeAuditReport audit = MergeAudit.run(config);
        assertTrue(audit.ok(), "only their place is checked: " + audit.firstProblem());
        assertEquals(4, audit.partitions().get(0).checked());
    }

    /**
     * A compacted output takes only records with a key: one without stopped the merge at its first batch in Kafka's
     * words ("One or more records have been rejected due to 20 record errors in total"), and every start after it the
     * same. Now it is a dead letter with the reason, and the others are merged.
     */
    @Test
    void aRecordWithoutAKeyForACompactedOutputIsADeadLetterAndTheMergeGoesOn() throws Exception {
        MergeInputs inputs = empty("keyless", 1);
        inputs.produce(0, 0, new long[] {T + 1, T + 3});
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(east.clientProperties(Listener.PLAINTEXT),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(inputs.topics().get(1), 0, T + 2, null,
                    "{\"at\":1}".getBytes(StandardCharsets.UTF_8))).get();
        }
        String output = Names.unique("compacted-out");
        west.createTopic(new NewTopic(output, 1, (short) 1).configs(Map.of("cleanup.policy", "compact")));
        String dead = Names.unique("keyless-dead");
        MergeConfig config = mergedToTheEnd(inputs, output, dead);
        assertEquals(List.of("west:0:0", "west:0:1"), sources(read(output)));
        List<ConsumerRecord<byte[], byte[]>> letters = read(dead);
        assertEquals(List.of("east:0:0"), sources(letters));
        assertTrue(header(letters.get(0), MergeHeaders.REASON).contains("it has no key, and the output topic is "
                + "compacted"), header(letters.get(0), MergeHeaders.REASON));
        assertTrue(MergeAudit.run(config).ok());
    }

    /**
     * The progress of a deleted output topic stays in the group under the topic's name, but Kafka 4 reads committed
     * offsets by topic ID: the merge's claim finds none for the new topic and merges everything again, which is what
     * the new, empty topic needs. (Were it read by name, the state's {@code out=} topic ID refuses it: StateCodecTest.)
     */
    @Test
    void aDeletedAndRecreatedOutputTopicIsMergedAgainFromTheStart() throws Exception {
        MergeInputs inputs = inputs(1);
        MergeConfig config = mergedToTheEnd(inputs, "recreated");
        delete(west, config.outputTopic());
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
            assertEquals(8, merge.counts().merged());
        }
        assertEquals(8, read(config.outputTopic()).size());
        assertTrue(MergeAudit.run(config).ok());
    }

    @Test
    void aMergeRunExactlyOnceIsRefusedAtLeastOnceInsteadOfWritingEverythingAgain() throws Exception {
        MergeInputs inputs = inputs(1);
        MergeConfig config = inputs.merge(Names.unique("m"), west, Names.unique("switch")).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        try (Merge merge = Merge.start(config.toBuilder().delivery(MergeDelivery.AT_LEAST_ONCE).build(),
                MergeInputs.quickMember())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> merge.awaitEnd(Duration.ofSeconds(60)));
            assertTrue(e.getCause().getMessage().contains("were merged with delivery exactly-once (their committed "
                    + "state is in group '" + config.progressGroup() + "')"), e.getCause().getMessage());
        }
        assertEquals(8, read(config.outputTopic()).size(), "nothing written again");
    }

    /**
     * A backfill of old records: the topics the merge creates keep what the inputs keep. Created with the broker's
     * default (7 days), the output deleted 35-day-old records as soon as they were written, while the merge said
     * "stopped cleanly" (a new user's run).
     */
    @Test
    void theTopicsTheMergeCreatesKeepWhatTheInputsKeep() throws Exception {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("keep-west"), Names.unique("keep-east")));
        west.createTopic(new NewTopic(inputs.topics().get(0), 1, (short) 1).configs(Map.of("retention.ms", "-1")));
        east.createTopic(new NewTopic(inputs.topics().get(1), 1, (short) 1)
                .configs(Map.of("retention.ms", Long.toString(Duration.ofDays(90).toMillis()))));
        long old = System.currentTimeMillis() - Duration.ofDays(35).toMillis();
        inputs.produce(0, 0, new long[] {old, old + 10});
        inputs.produce(1, 0, new long[] {old + 5});
        MergeConfig config = inputs.merge(Names.unique("m"), west, Names.unique("keep-out"))
                .late(LatePolicy.SIDE_TOPIC, Names.unique("keep-late")).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        for (String topic : List.of(config.outputTopic(), config.lateTopic().get())) {
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config kept = west.admin().describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS)
                    .get(resource);
            assertEquals("-1", kept.get("retention.ms").value(), topic + ": as long as the longest input keeps");
            assertEquals("-1", kept.get("retention.bytes").value(), topic);
            assertEquals("CreateTime", kept.get("message.timestamp.type").value(), topic);
        }
        assertEquals(3, read(config.outputTopic()).size());
    }

    /**
     * An input topic deleted and created again: said as such (it read "offsets 4 to -1 were deleted (retention?)", and
     * advised a new merge name, which writes every record again into the same output). Told by the topic's ID, kept in
     * the state, before any record is read: the new topic could as well hold more records than the merge's position,
     * and the merge went on from there, skipping those below (a review).
     */
    @Test
    void anInputTopicCreatedAgainIsSaidAsSuch() throws Exception {
        MergeInputs inputs = inputs(1);
        MergeConfig config = mergedToTheEnd(inputs, "input-again");
        String eastTopic = inputs.topics().get(1);
        delete(east, eastTopic);
        east.createTopic(eastTopic, 1);
        inputs.produce(1, 0, new long[] {T + 50});
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> merge.awaitEnd(Duration.ofSeconds(60)));
            String words = e.getCause().getMessage();
            assertTrue(words.contains("was committed while the merge read other input topics of the same names (an "
                    + "input topic was deleted and created again, or an input now points at another cluster)"), words);
            assertTrue(words.contains("merge into a new output topic under a new merge name"), words);
        }
    }

    /**
     * A new merge name into an output another merge wrote: exactly once it is refused, before anything is written (a
     * new user's renamed merge wrote 600,000 records a second time, and validate --connect said the state fits).
     */
    @Test
    void aNewMergeNameIntoAnOutputAnotherMergeWroteIsRefused() throws Exception {
        MergeInputs inputs = inputs(1);
        MergeConfig first = mergedToTheEnd(inputs, "renamed");
        MergeConfig renamed = first.toBuilder().name(Names.unique("m")).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Merge.start(renamed, MergeInputs.quickMember()));
        assertTrue(e.getMessage().startsWith("the output topic '" + first.outputTopic() + "' holds records that merge '"
                + renamed.name() + "' did not commit (merge '" + first.name() + "' committed into it)"), e.getMessage());
        assertTrue(CommittedStates.problems(renamed, Duration.ofSeconds(30)).contains(e.getMessage()),
                "validate --connect says so beforehand");
        assertEquals(8, read(first.outputTopic()).size(), "nothing written again");
        try (Merge again = Merge.start(first, MergeInputs.quickMember())) { // the merge that wrote them goes on
            assertTrue(again.awaitEnd(Duration.ofSeconds(60)));
        }
    }

    @Test
    void inputsWithDifferentPartitionCountsAreRefusedWithTheCounts() {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique("count-west"), Names.unique("count-east")));
        west.createTopic(inputs.topics().get(0), 2);
        east.createTopic(inputs.topics().get(1), 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Merge.start(
                inputs.merge(Names.unique("m"), west, Names.unique("count-out")).build()));
        assertEquals("the inputs' topics have different partition counts (west 2, east 3): partition p of each input "
                + "merges into partition p of the output, so they must be equal", e.getMessage());
    }

    /**
     * An output (or a side topic) that is an input's own topic, in the same cluster, is refused before anything is
     * written: the merge would read back what it writes (it did, and merged 7,178 records into its own input). The
     * same name in another cluster is another topic.
     */
    @Test
    void anInputsOwnTopicIsRefusedAsOutputOrSideTopic() throws Exception {
        MergeInputs inputs = empty("self", 2);
        String westTopic = inputs.topics().get(0);
        String expected = "the output topic '" + westTopic + "' is the topic of input 'west' (the same topic in the "
                + "same cluster): the merge would read what it writes. Merge into another topic.";
        MergeConfig intoItself = inputs.merge(Names.unique("m"), west, westTopic).build();
        assertEquals(List.of(expected), MergeTopics.problems(intoItself), "what validate --connect reports");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Merge.start(intoItself));
        assertEquals(expected, e.getMessage());
        assertEquals(0, read(westTopic).size(), "nothing written into the input");

        MergeConfig deadIntoEast = inputs.merge(Names.unique("m"), east, Names.unique("out"))
                .deadLetterTopic(inputs.topics().get(1)).build();
        assertEquals(List.of("the dead-letter topic '" + inputs.topics().get(1) + "' is the topic of input 'east' (the "
                + "same topic in the same cluster): the merge would read what it writes. Merge into another topic."),
                MergeTopics.problems(deadIntoEast));
        assertEquals(List.of(), MergeTopics.problems(inputs.merge(Names.unique("m"), east, westTopic).build()),
                "west's topic name in east is another topic");
    }

    /** Inputs west and east, each a new topic of {@code partitions} in its own cluster, nothing in them yet. */
    /** A merge of {@code inputs} into a new output named after {@code prefix}, run to the inputs' end. */
    private MergeConfig mergedToTheEnd(MergeInputs inputs, String prefix) throws Exception {
        MergeConfig config = inputs.merge(Names.unique("m"), west, Names.unique(prefix)).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        return config;
    }

    private static void delete(KafkaCluster cluster, String topic) throws Exception {
        cluster.admin().deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
        while (cluster.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(topic)) {
            Thread.sleep(100); // the deletion is under way
        }
    }

    /** A merge of {@code inputs} into {@code output} with the dead-letter topic {@code dead}, run to the end. */
    private MergeConfig mergedToTheEnd(MergeInputs inputs, String output, String dead) throws Exception {
        MergeConfig config = inputs.merge(Names.unique("m"), west, output).deadLetterTopic(dead).build();
        try (Merge merge = Merge.start(config, MergeInputs.quickMember())) {
            assertTrue(merge.awaitEnd(Duration.ofSeconds(60)));
        }
        return config;
    }

    /** Where each record came from ({@link MergeHeaders#SOURCE}), in order. */
    private static List<String> sources(List<ConsumerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> header(r, MergeHeaders.SOURCE)).toList();
    }

    private MergeInputs empty(String prefix, int partitions) {
        MergeInputs inputs = new MergeInputs(List.of("west", "east"), List.of(west, east),
                List.of(Names.unique(prefix + "-west"), Names.unique(prefix + "-east")));
        west.createTopic(inputs.topics().get(0), partitions);
        east.createTopic(inputs.topics().get(1), partitions);
        return inputs;
    }

    private List<ConsumerRecord<byte[], byte[]>> read(String topic) {
        return TestRecords.readAll(west.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(30));
    }

    private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
        Header h = r.headers().lastHeader(key);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
