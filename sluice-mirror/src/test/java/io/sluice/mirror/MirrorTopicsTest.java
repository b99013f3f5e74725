package io.sluice.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** Target topics are made and kept like their source topics: the configs that describe the data, and partitions. */
class MirrorTopicsTest {

    private static final Duration BOUND = Duration.ofSeconds(60);

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void theTargetTopicGetsTheDataConfigsAndFollowsNewPartitionsAndConfigChanges() throws Exception {
        String topic = Names.unique("kept");
        clusters.source().createTopic(new NewTopic(topic, 2, (short) 1).configs(Map.of(
                "cleanup.policy", "compact", "retention.ms", "86400000", "max.message.bytes", "300000",
                "min.insync.replicas", "1", "message.timestamp.type", "LogAppendTime")));
        produce(topic, 0, 2, 40);
        MirrorConfig config = clusters.mirror(Names.unique("kept"), topic).topicSyncInterval(Duration.ofMillis(500))
                .sourceProperty("metadata.max.age.ms", 2_000).build();
        try (Mirror mirror = Mirror.start(config)) {
            awaitCopies(mirror, 40);
            Map<String, ConfigEntry> made = configs(clusters.target(), topic);
            assertEquals("compact", made.get("cleanup.policy").value());
            assertEquals("86400000", made.get("retention.ms").value());
            assertEquals("300128", made.get("max.message.bytes").value(), "room for the provenance header");
            assertNotEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, made.get("min.insync.replicas").source(),
                    "min.insync.replicas is the source cluster's durability setting, not the data's");
            assertEquals("CreateTime", made.get("message.timestamp.type").value(),
                    "the copies keep the source's timestamps (here its append times)");

            clusters.source().admin().incrementalAlterConfigs(Map.of(resource(topic), List.of(
                    new AlterConfigOp(new ConfigEntry("retention.ms", "172800000"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("max.message.bytes", null), AlterConfigOp.OpType.DELETE))))
                    .all().get(30, TimeUnit.SECONDS);
            clusters.source().admin().createPartitions(Map.of(topic, NewPartitions.increaseTo(4))).all()
                    .get(30, TimeUnit.SECONDS);
            // the source's limit is its brokers' default now, which the target topic gets with room for the header
            String limit = Long.toString(Long.parseLong(configs(clusters.source(), topic).get("max.message.bytes")
                    .value()) + 128);
            await("the target's configs follow the source's", () -> {
                Map<String, ConfigEntry> now = configs(clusters.target(), topic);
                return now.get("retention.ms").value().equals("172800000")
                        && now.get("max.message.bytes").value().equals(limit);
            });
            produce(topic, 2, 4, 40);
            awaitCopies(mirror, 80);
            Map<Integer, List<String>> source = contents(clusters.source(), topic);
            assertEquals(4, source.size(), "records in every source partition");
            await("the copies of every partition committed in the same partition of the target",
                    () -> contents(clusters.target(), topic).equals(source));
            assertFalse(mirror.engine().failure().isPresent(), () -> "failed: " + mirror.engine().failure());
        }
    }

    /**
     * A target topic made by hand compacted, its source not: the source's records without a key failed the mirror's
     * first transaction (the broker refuses them), and every start the same, before the first topic sync round (30 s
     * by default) would have made the target like its source. The claim now does, for a target topic already there.
     */
    @Test
    void aTargetTopicMadeByHandWithOtherConfigsFollowsItsSourceBeforeTheFirstCopy() throws Exception {
        String topic = Names.unique("by-hand");
        clusters.source().createTopic(topic, 1);
        clusters.target().createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact",
                "retention.ms", "3600000")));
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, bytes("v" + i)));
            }
            producer.flush();
        }
        MirrorConfig config = clusters.mirror(Names.unique("by-hand"), topic).build(); // sync rounds 30 s apart
        try (Mirror mirror = Mirror.start(config)) {
            awaitCopies(mirror, 10);
            Map<String, ConfigEntry> now = configs(clusters.target(), topic);
            assertNotEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, now.get("cleanup.policy").source(),
                    "the source's: not set on it");
            assertNotEquals(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG, now.get("retention.ms").source());
            await("the copies committed", () -> contents(clusters.target(), topic).equals(contents(clusters.source(),
                    topic)));
        }
    }

    /**
     * A record of nearly the size the source's brokers take by default, on a topic that sets no limit: its copy, larger
     * by the provenance header, stopped the mirror at every start, since the target topic got the same default (a
     * chaos run). The target topic gets the source's limit in effect, with room for the header.
     */
    @Test
    void aRecordOfNearlyTheDefaultLimitOnATopicThatSetsNoneIsCopied() throws Exception {
        String topic = Names.unique("large");
        clusters.source().createTopic(topic, 1);
        int limit = Integer.parseInt(configs(clusters.source(), topic).get("max.message.bytes").value());
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("max.request.size", 2 * limit);
        byte[] value = new byte[limit - 100]; // the record and its batch's overhead fit in the source's limit
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, 0, bytes("k"), value)).get(30, TimeUnit.SECONDS);
        }
        MirrorConfig config = clusters.mirror(Names.unique("large"), topic).untilEnd(true).build();
        try (Mirror mirror = Mirror.start(config)) {
            assertTrue(mirror.awaitTermination(BOUND), "a bounded mirror ends");
            assertFalse(mirror.engine().failure().isPresent(), () -> "failed: " + mirror.engine().failure());
        }
        assertEquals(Integer.toString(limit + 128), configs(clusters.target(), topic).get("max.message.bytes").value());
        assertEquals(contents(clusters.source(), topic), contents(clusters.target(), topic));
    }

    /**
     * Many small records on a topic whose limit is far below the producers' batch size: the target broker refuses a
     * full batch, and the copies must still arrive, in order (a review feared endless splits: the producer splits a
     * refused batch, 220 times for these 3,000 records, and each split batch is taken).
     */
    @Test
    void smallRecordsOnATopicWithASmallLimitAreCopiedInOrder() throws Exception {
        String topic = Names.unique("small-limit");
        clusters.source().createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("max.message.bytes", "8000")));
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("batch.size", 4_000);
        props.put("linger.ms", 5);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 3_000; i++) {
                producer.send(new ProducerRecord<>(topic, 0, bytes("k" + i), new byte[500]));
            }
            producer.flush();
        }
        MirrorConfig config = clusters.mirror(Names.unique("small-limit"), topic).build();
        try (Mirror mirror = Mirror.start(config)) {
            awaitCopies(mirror, 3_000);
        }
        assertEquals(contents(clusters.source(), topic), contents(clusters.target(), topic));
    }

    /**
     * Within one cluster, a topic created after the start whose copy the mirror's pattern matches is refused when it is
     * claimed, before its copy is made: the check at the start saw only the topics there then, and the copies of such a
     * topic would each be copied again, a new topic every claim (a new user's run).
     */
    @Test
    void aTopicCreatedLaterWhoseCopyTheMirrorWouldCopyAgainIsRefusedBeforeItsCopyIsMade() throws Exception {
        KafkaCluster cluster = SharedKafka.cluster();
        String prefix = Names.unique("loop");
        Clusters one = new Clusters(cluster, cluster);
        MirrorConfig config = one.mirror(Names.unique("loop")).topicPattern(java.util.regex.Pattern.compile(
                java.util.regex.Pattern.quote(prefix) + "-.*")).naming(io.sluice.mirror.copy.TopicNaming.template(
                        "{topic}-copy")).sourceProperty("metadata.max.age.ms", 500).build();
        try (Mirror mirror = Mirror.start(config)) {
            String topic = prefix + "-a";
            cluster.createTopic(topic, 1);
            await("the mirror stops on the topic it would loop on", () -> mirror.engine().failure().isPresent());
            String why = String.valueOf(mirror.engine().failure().get().getMessage());
            assertTrue(why.contains("the copy of " + topic + " (" + topic + "-copy) is itself a topic this mirror "
                    + "copies"), why);
            assertFalse(cluster.admin().listTopics().names().get(30, TimeUnit.SECONDS).contains(topic + "-copy"),
                    "no copy made");
        }
    }

    /** {@code count} records, spread over partitions [from, to), with keys that compaction keeps apart. */
    private void produce(String topic, int from, int to, int count) {
        Map<String, Object> props = new HashMap<>(clusters.source().clientProperties(Listener.PLAINTEXT));
        props.put("enable.idempotence", true);
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < count; i++) {
                int p = from + i % (to - from);
                producer.send(new ProducerRecord<>(topic, p, bytes("k" + p + "-" + i), bytes("v" + i)));
            }
            producer.flush();
        }
    }

    /** Until the sink sent {@code copies} (their transactions may still be open). */
    private void awaitCopies(Mirror mirror, long copies) {
        await(copies + " copies", () -> mirror.counts().copied() >= copies
                || mirror.engine().failure().isPresent());
        assertFalse(mirror.engine().failure().isPresent(), () -> "failed: " + mirror.engine().failure());
        assertEquals(copies, mirror.counts().copied());
    }

    /** Each partition's records as a read_committed reader sees them, as text. */
    private static Map<Integer, List<String>> contents(KafkaCluster cluster, String topic) {
        Map<Integer, List<String>> byPartition = new TreeMap<>();
        Clusters.partitions(cluster, topic).forEach((p, records) -> byPartition.put(p,
                records.stream().map(Clusters::content).toList()));
        return byPartition;
    }

    private static Map<String, ConfigEntry> configs(KafkaCluster cluster, String topic) {
        try {
            Map<String, ConfigEntry> byName = new HashMap<>();
            cluster.admin().describeConfigs(List.of(resource(topic))).all().get(30, TimeUnit.SECONDS)
                    .get(resource(topic)).entries().forEach(e -> byName.put(e.name(), e));
            return byName;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the configs of " + topic, e);
        }
    }

    private static ConfigResource resource(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic);
    }

    /** Polls {@code condition} until it holds, within {@link #BOUND}. */
    private static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + BOUND.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
