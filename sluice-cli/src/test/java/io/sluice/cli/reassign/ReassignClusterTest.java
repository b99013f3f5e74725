package io.sluice.cli.reassign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.reassign.execute.ExecuteOptions;
import io.sluice.reassign.execute.ReassignmentRun;
import io.sluice.reassign.execute.Throttles;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.journal.RunLimits;
import io.sluice.reassign.plan.DiskHeadroom;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.PlanFile;
import io.sluice.reassign.plan.ReassignmentPlan;
import io.sluice.testkit.Names;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitionReassignment;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code sluice reassign} on a real cluster: three nodes on racks a, b and c, and a broker-only node on rack a added
 * after start. The tests share the cluster and run in order: the last one empties the added broker again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReassignClusterTest {

    private static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** A progress line with the time left: partitions done, partitions. */
    private static final Pattern PROGRESS = Pattern.compile(
            ".*moving: (\\d+)/(\\d+) partitions, .* copied, about .+ left");

    private static KafkaCluster kafka;
    private static Admin admin;

    @BeforeAll
    static void start() {
        // a follower's fetch of up to 1 MB per partition (the default) lands whole before the replication throttle
        // counts it, so a throttled move of a partition below 1 MB could finish before the test looks: fetch less
        kafka = KafkaCluster.builder().name("reassign").nodes(3).racks("rack-a", "rack-b", "rack-c")
                .brokerProperty("replica.fetch.max.bytes", "32768").start();
        kafka.addBroker("rack-a");
        admin = kafka.admin();
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Test
    @Order(1)
    void theAddedBrokerJoinsTheRunningClusterWithItsRack() throws Exception {
        Map<Integer, String> racks = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream()
                .collect(Collectors.toMap(Node::id, Node::rack));
        assertEquals(Map.of(1, "rack-a", 2, "rack-b", 3, "rack-c", 4, "rack-a"), racks);
    }

    @Test
    @Order(2)
    void aTopicMovesToTheAddedBrokerUnderTrafficThroughAKillAndAResumeLosingAndDoublingNothing() throws Exception {
        String topic = topicOnFirstThree("reassign-live", 4, 2_000, 1_000);
        Path dir = TestDirs.newDir("reassign-live");
        Path planFile = dir.resolve("plan.json");
        String group = Names.unique("reassign-reader");
        Map<String, Object> client = kafka.clientProperties(Listener.PLAINTEXT);

        try (LiveTraffic traffic = new LiveTraffic(client, topic, group, "billing-service")) {
            awaitTrue(() -> traffic.consumed() > 1_000, "the consumer reads");
            Cli.Result readers = reassign(ExitStatus.OK, "who-reads", "-t", topic);
            assertTrue(readers.out().contains(topic + "  group " + group) && readers.out().contains("billing-service@"),
                    readers.out());

            Cli.Result plan = planToAddBroker4(topic, planFile);
            ReassignmentPlan written = PlanFile.read(planFile);
            // rack a holds one replica of each of the 4 partitions: broker 4, on rack a too, takes half of them (a
            // replica from broker 2 or 3 would put two replicas of a partition on one rack)
            assertEquals(2, written.replicaMoves(), plan.out());
            written.moves().stream().filter(m -> m.replicaMoves() > 0).forEach(m -> {
                assertEquals(List.of(4), m.adding(), m.toString());
                assertEquals(List.of(1), m.removing(), "rack a's other broker gives up its replica: " + m);
            });
            written.disks().forEach(d -> assertTrue(d.capacityKnown(), "the brokers report their volume: " + d));

            // kill -9 right after the moves were requested; a fresh throttle lets about ten seconds' worth of its rate
            // through first (see the cancel case), so they may be done by the resume, which must restore either way
            ChildProcess killed = child(dir, "reassign-killed", ReassignmentRun.AFTER_START, "reassign", "execute",
                    planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "320KiB/s");
            assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
            Path journal = Path.of(planFile + ".journal");
            assertFalse(Journal.read(journal).isEmpty());
            assertTrue(dynamic(new ConfigResource(ConfigResource.Type.BROKER,
                    "4")).containsKey(Throttles.FOLLOWER_RATE),
                    "the killed run left its throttle");

            long consumedBefore = traffic.consumed();
            Cli.Result resume = reassign(ExitStatus.OK, "resume", journal.toString(), "--poll", "200ms");
            assertTrue(resume.err().contains("restored broker 4 " + Throttles.FOLLOWER_RATE + " (removed)"),
                    resume.err());

            Map<TopicPartition, List<Integer>> replicas = replicas(topic);
            for (PartitionMove move : written.moves()) {
                assertEquals(move.to(), replicas.get(move.topicPartition()), move.toString());
            }
            assertNoThrottleOrOverride(topic);
            reassign(ExitStatus.OK, "check", "--journal", journal.toString(), "--stall-window",
                    "1s");

            awaitTrue(() -> traffic.consumed() > consumedBefore + 500, "the consumer carries on after the move");
            Set<String> acknowledged = traffic.stopProducing();
            assertNull(traffic.failure(), () -> "a client failed: " + traffic.failure());
            Map<String, Long> read = new HashMap<>();
            TestRecords.values(TestRecords.readAll(client, topic, Duration.ofSeconds(60))).stream()
                    .filter(v -> v.startsWith("live-")).forEach(v -> read.merge(v, 1L, Long::sum));
            assertEquals(List.of(), read.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                    .limit(5).toList(), "duplicated");
            assertEquals(List.of(), acknowledged.stream().filter(v -> !read.containsKey(v)).limit(5).toList(), "lost");
            assertTrue(acknowledged.size() > 1_000, "traffic flowed: " + acknowledged.size());
        }
    }

    @Test
    @Order(3)
    void aRunKilledMidMoveIsCancelledAndTheClusterIsAsBefore() throws Exception {
        String topic = topicOnFirstThree("reassign-cancel", 4, 3_000, 1_000);
        Path planFile = plannedToBroker4(topic);
        Map<TopicPartition, List<Integer>> before = replicas(topic);
        Path otherPlan = plannedToBroker4(topicOnFirstThree("reassign-beside", 1, 10, 100));

        // a throttle lets a move it has not yet measured go ahead for about ten seconds' worth of its rate (Kafka's
        // quota rate counts at least replication.quota.window.num - 1 windows): at 64 KiB/s that is about 640 KiB,
        // most of a 750 kB partition, and one did finish before the cancel in CI. At 16 KiB/s it is a fifth of one.
        ChildProcess killed = child(planFile.getParent(), "reassign-cancelled", ReassignmentRun.AFTER_START,
                "reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "16KiB/s");
        assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
        assertFalse(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "the moves are under way");

        // a run beside them would take their throttles for the values to restore (a review)
        Cli.Result beside = reassign(ExitStatus.FAILURE, "execute", otherPlan.toString());
        assertTrue(beside.err().contains("being moved already (" + topic + "-"), beside.err());
        assertFalse(Files.exists(Path.of(otherPlan + ".journal")), "nothing was changed");

        Cli.Result cancel = cancelledBackTo(before, topic, Path.of(planFile + ".journal"));
        assertTrue(cancel.err().contains("cancelled the moves of " + topic), cancel.err());
    }

    @Test
    @Order(4)
    void topicsPinnedByFutureOrMissingTimestampsAreGuardedWhileTheyMoveAndRestoredAfter() throws Exception {
        String future = topicOnFirstThree("reassign-pinned", 2, 1_000, 1_000);
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            long later = System.currentTimeMillis() + Duration.ofMinutes(30).toMillis();
            producer.send(new ProducerRecord<>(future, 0, later, "k", "from-the-future")).get(30, TimeUnit.SECONDS);
        }
        String untimed = untimedTopic("reassign-untimed", 500);
        List<ConsumerRecord<byte[], byte[]>> read = TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT),
                untimed, Duration.ofSeconds(30));
        assertEquals(1_000, read.size());
        assertEquals(Set.of(-1L), read.stream().map(ConsumerRecord::timestamp).collect(Collectors.toSet()),
                "Kafka 4.3.1 keeps records without a timestamp as such");
        ConfigResource untimedResource = new ConfigResource(ConfigResource.Type.TOPIC, untimed);
        set(untimedResource, "retention.bytes", "1073741824"); // the topic's own, above the guard's
        Path planFile = TestDirs.newDir("reassign-pinned").resolve("plan.json");
        planToAddBroker4(future + "," + untimed, planFile);

        // killed with the moves under way (throttled), so the guards are seen while the replicas are copied: 2 MB at
        // 128 KiB/s, past the ~1.3 MB a fresh throttle of that rate lets through first (see the cancel case), and
        // short enough that the moves end within check's window below, so the resume does not wait for them too
        ChildProcess killed = child(planFile.getParent(), "reassign-guarded", ReassignmentRun.AFTER_START,
                "reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "128KiB/s");
        assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
        String futureGuard = dynamic(new ConfigResource(ConfigResource.Type.TOPIC, future)).get("retention.bytes");
        String untimedGuard = dynamic(untimedResource).get("retention.bytes");
        assertFalse(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "the moves are under way");
        for (String guard : List.of(String.valueOf(futureGuard), String.valueOf(untimedGuard))) {
            assertTrue(!guard.equals("null") && Long.parseLong(guard) > 400_000 && Long.parseLong(guard) < 700_000,
                    "1 MB over 2 partitions: about 500 kB x 1.10 per partition, not " + guard);
        }
        // the moves grow at the throttle's pace: check names no move as stalled (it read every move in progress as
        // one from its full replica list to itself, so nothing was seen to grow). A window past Kafka's quota window
        // (11 s): once a fresh throttle's first burst is spent, a follower may fetch nothing for about that long; check
        // watches a throttled topic's moves for 15 s at least. What else check says depends on whether the moves end
        // within the window (the run's configs are then leftovers)
        Cli.Result moving = Cli.run("reassign", "check", "--stall-window", "15s", "-b", kafka.bootstrapServers());
        assertFalse(moving.out().contains("stalled move"), moving.out() + moving.err());

        Cli.Result resume = reassign(ExitStatus.OK, "resume", planFile + ".journal", "--poll", "200ms");
        assertTrue(resume.err().contains("restored topic " + future + " retention.bytes (removed)"), resume.err());
        assertTrue(resume.err().contains("restored topic " + untimed + " retention.bytes to 1073741824"), resume.err());
        assertEquals("1073741824", dynamic(untimedResource).get("retention.bytes"));
        assertNoThrottleOrOverride(future);
        // the journal topic forgot every config the run restored
        reassign(ExitStatus.OK, "check", "--stall-window", "1s");
    }

    @Test
    @Order(5)
    void checkFindsAKilledRunsGuardThroughTheJournalTopicWhenItsFileIsGoneAndFixRestoresTheValueBefore()
            throws Exception {
        String topic = untimedTopic("reassign-orphan", 100);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        set(resource, "retention.bytes", "5000000");
        Path planFile = TestDirs.newDir("reassign-orphan").resolve("plan.json");
        planToAddBroker4(topic, planFile);
        ChildProcess killed = child(planFile.getParent(), "reassign-orphaned", ReassignmentRun.AFTER_THROTTLE,
                "reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "1MB/s");
        assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
        String guard = dynamic(resource).get("retention.bytes");
        assertTrue(guard != null && Long.parseLong(guard) < 5_000_000, "the guard is set: " + guard);
        Files.delete(Path.of(planFile + ".journal")); // run elsewhere, or the file lost

        Cli.Result found = reassign(ExitStatus.FAILURE, "check", "--stall-window", "1s");
        assertTrue(found.out().contains("temporary retention.bytes=" + guard + " on topic " + topic
                + " (was 5000000), per the journal topic " + ClusterJournal.TOPIC + ": run "), found.out());
        assertTrue(found.out().contains("temporary " + Throttles.FOLLOWER_RATE + "=1000000 on broker 4 (was not set), "
                + "per the journal topic"), found.out());
        Cli.Result fixed = reassign(ExitStatus.OK, "check", "--stall-window", "1s", "--fix");
        assertTrue(fixed.err().contains("restored topic " + topic + " retention.bytes to 5000000, per the journal "
                + "topic"), fixed.err());
        assertEquals("5000000", dynamic(resource).get("retention.bytes"), "the value before the run");
        assertNoThrottleOrOverride(null);
        Map<String, String> values = dynamic(resource);
        Throttles.TOPIC_KEYS.forEach(k -> assertFalse(values.containsKey(k), topic + " " + values));
        Cli.Result clean = reassign(ExitStatus.OK, "check", "--stall-window", "1s");
        assertTrue(clean.err().contains("clean"), clean.err());
    }

    @Test
    @Order(6)
    void checkFindsPlantedLeftoversAndFixRemovesThem() throws Exception {
        String topic = topicOnFirstThree("reassign-leftovers", 1, 200, 100);
        TopicPartition partition = new TopicPartition(topic, 0);
        List<Integer> before = replicas(topic).get(partition);
        ConfigResource broker2 = new ConfigResource(ConfigResource.Type.BROKER, "2");
        ConfigResource topicResource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        ConfigResource broker4 = new ConfigResource(ConfigResource.Type.BROKER, "4");
        set(broker2, Throttles.LEADER_RATE, "1000");
        set(broker4, Throttles.FOLLOWER_RATE, "2000"); // read only while broker 4 answers
        set(topicResource, Throttles.FOLLOWER_REPLICAS, "0:4");
        // a run killed after setting its retention guard
        Path journalFile = TestDirs.newDir("reassign-leftovers").resolve("killed.journal");
        try (Journal journal = Journal.open(journalFile)) {
            journal.changing(new ConfigChange(ConfigResource.Type.TOPIC, topic, "retention.bytes", "12345", null));
        }
        set(topicResource, "retention.bytes", "12345");
        // a move to a broker that is down stalls
        kafka.node(4).stop();
        try {
            awaitTrue(() -> !brokers().contains(4), "broker 4 is fenced");
            List<Integer> target = new ArrayList<>(before);
            target.set(target.indexOf(1), 4);
            admin.alterPartitionReassignments(Map.of(partition, Optional.of(new NewPartitionReassignment(target))))
                    .all().get(30, TimeUnit.SECONDS);
            Cli.Result found = reassign(ExitStatus.FAILURE, "check", "--journal", journalFile.toString(),
                    "--stall-window", "1s");
            assertTrue(found.out().contains("throttle " + Throttles.LEADER_RATE + "=1000 on broker 2"), found.out());
            assertTrue(found.out().contains("throttle " + Throttles.FOLLOWER_REPLICAS + "=0:4 on topic " + topic),
                    found.out());
            assertTrue(found.out().contains("temporary retention.bytes=12345 on topic " + topic + " (was not set)"),
                    found.out());
            assertTrue(found.out().contains("stalled move of " + partition + " to brokers [4]: brokers [4] are not in "
                    + "the cluster"), found.out());
            // a check that left the down broker out said "clean" of the throttle on it
            assertTrue(found.out().contains("broker 4 does not answer (down, or fenced): a throttle left on it cannot "
                    + "be read; check again once it is back"), found.out());
            assertTrue(found.err().contains("4 leftover(s); `--fix` removes them; 1 broker(s) not checked"),
                    found.err());

            Cli.Result fixed = reassign(ExitStatus.FAILURE, "check", "--journal", journalFile.toString(),
                    "--stall-window", "1s", "--fix");
            assertTrue(fixed.err().contains("fixed 4 leftover(s); 1 broker(s) not checked"), fixed.err());
            awaitTrue(() -> admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                    "the stalled move is cancelled");
            // Kafka gives a cancelled move's replicas back in the order of the move's list
            assertEquals(Set.copyOf(before), Set.copyOf(replicas(topic).get(partition)),
                    "the partition keeps its replicas");
            assertNoThrottleOrOverride(topic);
            assertFalse(dynamic(broker2).containsKey(Throttles.LEADER_RATE));
            Cli.Result unchecked = reassign(ExitStatus.FAILURE, "check", "--journal", journalFile.toString(),
                    "--stall-window", "1s");
            assertTrue(unchecked.err().contains("\n1 broker(s) not checked: check again once they answer"),
                    unchecked.err());
        } finally {
            kafka.node(4).start();
            awaitTrue(() -> brokers().contains(4), "broker 4 is back");
        }
        Cli.Result back = reassign(ExitStatus.FAILURE, "check", "--stall-window", "1s");
        assertTrue(back.out().contains("throttle " + Throttles.FOLLOWER_RATE + "=2000 on broker 4"), back.out());
        reassign(ExitStatus.OK, "check", "--stall-window", "1s", "--fix");
        assertFalse(dynamic(broker4).containsKey(Throttles.FOLLOWER_RATE));
        Cli.Result clean = reassign(ExitStatus.OK, "check", "--journal", journalFile.toString(), "--stall-window", "1s");
        assertTrue(clean.err().contains("clean"), clean.err());
    }

    @Test
    @Order(7)
    void aPlanWhosePeakPassesTheDiskHeadroomIsRefusedWithTheNumbers() throws Exception {
        String topic = topicOnFirstThree("reassign-disk", 4, 2_000, 1_000);
        Path dir = TestDirs.newDir("reassign-disk");
        // the volume here is shared with everything else on the machine: a capacity of our own makes the figures ours
        String capacity = "1GiB";
        Cli.Result fits = reassign(ExitStatus.OK, "plan", "--add-brokers", "4", "-t", topic, "--log-dir-capacity",
                capacity, "--max-disk-use", "100%", "--json", "-o", dir.resolve("fits.json").toString());
        JsonNode four = null;
        for (JsonNode disk : PlanFile.json().readTree(fits.out()).get("disks")) {
            if (disk.get("broker").asInt() == 4) {
                four = disk;
            }
        }
        long now = four.get("now").asLong();
        long peak = four.get("peak").asLong();
        assertTrue(peak > now + 1_000_000, fits.out());
        double limit = (now + (peak - now) / 2.0) / (1L << 30);

        Path refusedFile = dir.resolve("refused.json");
        Cli.Result refused = reassign(ExitStatus.FAILURE, "plan", "--add-brokers", "4", "-t", topic,
                "--log-dir-capacity", capacity, "--max-disk-use", Double.toString(limit), "-o", refusedFile.toString());
        assertTrue(refused.err().contains("refused: broker 4 ") && refused.err().contains(" at peak (")
                && refused.err().contains("of 1.07 GB), above the limit of"), refused.err());
        assertTrue(refused.err().contains("no plan written"), refused.err());
        assertFalse(Files.exists(refusedFile));
    }

    @Test
    @Order(8)
    void aMovedReplicaExpiresByItsRecordTimestampsNotByWhenItWasCopied() throws Exception {
        String topic = Names.unique("reassign-retention");
        long retentionMs = 20_000;
        kafka.createTopic(new NewTopic(topic, Map.of(0, List.of(1)))
                .configs(Map.of("retention.ms", Long.toString(retentionMs))));
        long produced = System.currentTimeMillis();
        long age = 14_000;
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, 0, produced - age, "k" + i, "old-" + i));
            }
            producer.flush();
        }
        TopicPartition partition = new TopicPartition(topic, 0);
        admin.alterPartitionReassignments(Map.of(partition, Optional.of(new NewPartitionReassignment(List.of(4)))))
                .all().get(30, TimeUnit.SECONDS);
        awaitTrue(() -> replicas(topic).get(partition).equals(List.of(4))
                && admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "moved to broker 4");
        long moved = System.currentTimeMillis();
        assertEquals(0, offset(partition, OffsetSpec.earliest()), "nothing expired before the move ended");

        awaitTrue(() -> offset(partition, OffsetSpec.earliest()) == 100, "the moved records expire");
        long expired = System.currentTimeMillis();
        System.out.printf("retention on a moved replica: records %d ms old at produce, retention.ms %d; moved at "
                + "+%d ms, expired at +%d ms (by file time it would be after +%d ms)%n", age, retentionMs,
                moved - produced, expired - produced, moved - produced + retentionMs);
        assertTrue(expired < moved + retentionMs - 2_000, "expired by the records' time (+" + (expired - produced)
                + " ms), not the copy's (moved at +" + (moved - produced) + " ms)");
    }

    @Test
    @Order(9)
    void aBalancePlanMovesUnderACatchUpThrottleGuardedAsTightSpreadsTheBytesAndElectsThePreferredLeaders()
            throws Exception {
        String topic = topicOnFirstThree("reassign-balance", 4, 4_000, 1_000);
        Path dir = TestDirs.newDir("reassign-balance");
        // the headroom made tight for broker 4: its peak within 10% of the limit, every log dir under it
        Cli.Result measured = reassign(ExitStatus.OK, "plan", "--balance", "-t", topic, "--log-dir-capacity", "1GiB",
                "--max-disk-use", "100%", "--json", "-o", dir.resolve("measure.json").toString());
        long highest = 0;
        long peakOfFour = 0;
        for (JsonNode disk : PlanFile.json().readTree(measured.out()).get("disks")) {
            highest = Math.max(highest, disk.get("peak").asLong());
            if (disk.get("broker").asInt() == 4) {
                peakOfFour = disk.get("peak").asLong();
            }
        }
        double ratio = (double) peakOfFour / highest;
        double maxDiskUse = Math.min(1.0, 0.08 / (1 - Math.min(ratio, 0.99)));
        long capacity = (long) Math.ceil(highest / maxDiskUse * 1.01);
        Path planFile = dir.resolve("plan.json");
        Cli.Result plan = reassign(ExitStatus.OK, "plan", "--balance", "-t", topic, "--log-dir-capacity",
                Long.toString(capacity), "--max-disk-use", Double.toString(maxDiskUse), "-o", planFile.toString());
        ReassignmentPlan written = PlanFile.read(planFile);
        assertTrue(written.replicaMoves() > 0, plan.out());
        written.moves().stream().filter(m -> m.replicaMoves() > 0)
                .forEach(m -> assertEquals(List.of(4), m.adding(), "only rack a's broker 1 can give to 4: " + m));
        assertTrue(new DiskHeadroom(maxDiskUse).tight(written.disks(), ExecuteOptions.TIGHT_MARGIN).stream()
                .anyMatch(d -> d.broker() == 4), "broker 4's peak is tight: " + plan.out());
        Map<Integer, Long> bytesBefore = bytesPerBroker();

        AtomicReference<Cli.Result> execute = new AtomicReference<>();
        Thread run = new Thread(() -> execute.set(Cli.run("reassign", "execute", planFile.toString(), "-b",
                kafka.bootstrapServers(), "--catch-up-time", "3s", "--max-disk-use", Double.toString(maxDiskUse),
                "--poll", "200ms", "--progress-every", "200ms")), "reassign-execute");
        long start = System.nanoTime();
        run.start();
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Set<String> guardsWhileMoving = new java.util.TreeSet<>();
        while (run.isAlive()) {
            String guard = dynamic(resource).get("retention.bytes");
            if (guard != null && !admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS)
                    .isEmpty()) {
                guardsWhileMoving.add(guard);
            }
            Thread.sleep(100);
        }
        long took = System.nanoTime() - start;
        Cli.Result result = execute.get();
        assertEquals(ExitStatus.OK, result.status(), result.out() + result.err());
        System.out.printf("balance of %s: %d replica copies of %d bytes in %d ms under --catch-up-time 3s%n", topic,
                written.replicaMoves(), written.bytesToCopy(), TimeUnit.NANOSECONDS.toMillis(took));
        assertTrue(result.err().contains("throttle: "), result.err());
        assertTrue(result.err().lines().map(PROGRESS::matcher).anyMatch(m -> m.matches()
                && Integer.parseInt(m.group(1)) < Integer.parseInt(m.group(2))),
                "the progress shows the time left while partitions move: " + result.err());
        assertTrue(took > TimeUnit.SECONDS.toNanos(1), "throttled: " + took / 1_000_000 + " ms");
        assertEquals(1, guardsWhileMoving.size(), "the guard held one value while the replicas moved");
        long guard = Long.parseLong(guardsWhileMoving.iterator().next());
        // the largest partition (about 4 MB / 4) plus its share of what broker 4 has left under the limit at the peak
        DiskHeadroom limit = new DiskHeadroom(maxDiskUse);
        long left = written.disks().stream().filter(d -> d.broker() == 4)
                .mapToLong(d -> Math.max(0, limit.limitBytes(d) - d.peak())).min().orElseThrow();
        assertTrue(guard > 900_000 && guard < 1_300_000 + left, "the largest partition plus at most " + left
                + " bytes, not " + guard);
        assertTrue(result.err().contains("guarding topic " + topic + " while it moves: broker 4's "), result.err());
        assertTrue(result.err().contains("restored topic " + topic + " retention.bytes (removed)"), result.err());
        assertNoThrottleOrOverride(topic);

        Map<TopicPartition, List<Integer>> replicas = replicas(topic);
        for (PartitionMove move : written.moves()) {
            assertEquals(move.to(), replicas.get(move.topicPartition()), move.toString());
        }
        assertEquals(Map.of(), notLedByTheirPreferredLeader(topic), "the preferred leaders lead");
        Set<TopicPartition> given = written.moves().stream().filter(m -> m.replicaMoves() > 0)
                .map(PartitionMove::topicPartition).collect(Collectors.toSet());
        awaitTrue(() -> holdsNoneOf(1, given), "broker 1 deleted the replicas it gave up");
        Map<Integer, Long> bytesAfter = bytesPerBroker();
        System.out.printf("bytes per broker before %s, after %s%n", bytesBefore, bytesAfter);
        assertTrue(variance(bytesAfter) < variance(bytesBefore), "more even: before " + bytesBefore + ", after "
                + bytesAfter);
        Set<String> keys = TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(60))
                .stream().map(r -> new String(r.key(), java.nio.charset.StandardCharsets.UTF_8))
                .collect(Collectors.toSet());
        assertEquals(4_000, keys.size(), "0 lost: every record fill-0 to fill-3999 is there");
    }

    @Test
    @Order(10)
    void removingABrokerMovesEveryReplicaOffIt() throws Exception {
        Path planFile = TestDirs.newDir("reassign-remove").resolve("remove.json");
        Cli.Result plan = reassign(ExitStatus.OK, "plan", "--remove-brokers", "4", "-o", planFile.toString());
        assertTrue(PlanFile.read(planFile).replicaMoves() > 0, plan.out());
        reassign(ExitStatus.OK, "execute", planFile.toString(), "--poll", "200ms",
                "--batch-size", "50");

        Set<String> topics = admin.listTopics(new org.apache.kafka.clients.admin.ListTopicsOptions().listInternal(true))
                .names().get(30, TimeUnit.SECONDS);
        Map<String, List<Integer>> onFour = new HashMap<>();
        for (String topic : topics) {
            replicas(topic).forEach((tp, r) -> {
                if (r.contains(4)) {
                    onFour.put(tp.toString(), r);
                }
            });
        }
        assertEquals(Map.of(), onFour, "no replica left on broker 4");
        awaitTrue(() -> admin.describeLogDirs(List.of(4)).allDescriptions().get(30, TimeUnit.SECONDS).get(4).values()
                .stream().allMatch(d -> d.replicaInfos().isEmpty()), "broker 4 deleted its replicas");
        assertNoThrottleOrOverride(null);

        // a finished journal: one line says so (it was followed by "done: ... is complete", which contradicted it)
        for (String command : List.of("resume", "cancel")) {
            Cli.Result over = reassign(ExitStatus.OK, command, planFile + ".journal");
            assertTrue(over.err().contains("says this run is over (finished or cancelled)"), over.err());
            assertFalse(over.err().contains("done:") || over.err().contains("cancelled: no move"), over.err());
        }
    }

    /** A topic on brokers 1 to 3 with {@code perPartition} records of 1000 bytes without a timestamp in each of 2. */
    private static String untimedTopic(String prefix, int perPartition) throws Exception {
        String topic = Names.unique(prefix);
        createOnFirstThree(topic, 2);
        for (int p = 0; p < 2; p++) {
            UntimedRecords.write(admin, topic, p, perPartition, 1_000);
            TopicPartition partition = new TopicPartition(topic, p);
            assertEquals(-1L, admin.listOffsets(Map.of(partition, OffsetSpec.maxTimestamp())).all()
                    .get(30, TimeUnit.SECONDS).get(partition).timestamp(), "no record of " + partition + " has a time");
        }
        return topic;
    }

    /** Each broker's replica bytes, as DescribeLogDirs reports them. */
    private static Map<Integer, Long> bytesPerBroker() throws Exception {
        Map<Integer, Long> bytes = new java.util.TreeMap<>();
        admin.describeLogDirs(brokers()).allDescriptions().get(30, TimeUnit.SECONDS).forEach((broker, dirs) ->
                dirs.values().forEach(d -> d.replicaInfos().values().stream().filter(r -> !r.isFuture())
                        .forEach(r -> bytes.merge(broker, r.size(), Long::sum))));
        return bytes;
    }

    private static double variance(Map<Integer, Long> bytes) {
        double mean = bytes.values().stream().mapToLong(Long::longValue).average().orElse(0);
        return bytes.values().stream().mapToDouble(b -> (b - mean) * (b - mean)).sum();
    }

    private static boolean holdsNoneOf(int broker, Set<TopicPartition> partitions) throws Exception {
        return admin.describeLogDirs(List.of(broker)).allDescriptions().get(30, TimeUnit.SECONDS).get(broker).values()
                .stream().noneMatch(d -> partitions.stream().anyMatch(d.replicaInfos()::containsKey));
    }

    /** The partitions of {@code topic} whose leader is not their first replica, with both. */
    private static Map<Integer, String> notLedByTheirPreferredLeader(String topic) throws Exception {
        Map<Integer, String> wrong = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> {
                    int preferred = p.replicas().get(0).id();
                    if (p.leader() == null || p.leader().id() != preferred) {
                        wrong.put(p.partition(), "led by " + (p.leader() == null ? "none" : p.leader().id())
                                + ", preferred " + preferred);
                    }
                });
        return wrong;
    }

    /**
     * A broker that moves copy to stops while they copy: the run's line stood still without a word, and the run ended
     * a minute later when its question to that broker timed out. Now it says which broker does not answer and which
     * moves wait for it, waits with them, says when it answers again, and completes.
     */
    @Test
    @Order(13)
    void aMoveWaitsForTheBrokerItCopiesToWhileThatBrokerIsDownAndSaysSo() throws Exception {
        String topic = topicOnFirstThree("reassign-absent", 2, 1_500, 1_000); // past a fresh throttle's first burst
        Path planFile = TestDirs.newDir("reassign-absent").resolve("plan.json");
        planToAddBroker4(topic, planFile);
        assertTrue(PlanFile.read(planFile).replicaMoves() > 0, "the plan moves replicas to broker 4");
        ChildProcess run = executing("reassign-absent", planFile, "64KiB/s");
        run.awaitLogLine(l -> l.contains("moving " + topic), Duration.ofSeconds(60));
        kafka.node(4).stop();
        try {
            run.awaitLogLine(l -> l.contains("broker 4 does not answer (stopped, or cut off from here): the moves that "
                    + "copy to it (" + topic) && l.contains("sluice reassign cancel " + planFile + ".journal"),
                    Duration.ofSeconds(30));
        } finally {
            kafka.node(4).start();
        }
        run.awaitLogLine(l -> l.contains("broker 4 answers again: the moves that copy to it go on"),
                Duration.ofSeconds(60));
        assertEquals(ExitStatus.OK, run.waitForExit(), run.tail());
        assertTrue(replicas(topic).values().stream().anyMatch(r -> r.contains(4)), "the moves are done");
        assertNoThrottleOrOverride(topic);
    }

    private static ChildProcess child(Path dir, String name, String crashAt, String... args) {
        return ChildJvm.builder(name)
                .classpathOfThisJvm()
                .jvmOptions(JVM)
                .systemProperty("sluice.crash.at", crashAt)
                .mainClass(Main.class.getName())
                .args(args)
                .workDir(dir)
                .build()
                .start();
    }

    /** {@code execute} of {@code planFile} in a JVM of its own, under {@code throttle}, with a progress line a second. */
    private static ChildProcess executing(String name, Path planFile, String throttle) {
        return ChildJvm.builder(name)
                .classpathOfThisJvm()
                .jvmOptions(JVM)
                .mainClass(Main.class.getName())
                .args("reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle",
                        throttle, "--poll", "200ms", "--progress-every", "1s")
                .workDir(planFile.getParent())
                .build()
                .start();
    }

    /** {@code cancel} of a run's journal, which must leave every partition with its replicas before, in their order. */
    private static Cli.Result cancelledBackTo(Map<TopicPartition, List<Integer>> before, String topic, Path journal)
            throws Exception {
        Cli.Result cancel = reassign(ExitStatus.OK, "cancel", journal.toString());
        assertEquals(before, replicas(topic), "every partition has its replicas back, in their order");
        assertNoThrottleOrOverride(topic);
        return cancel;
    }

    /** A plan, in a folder of its own, that adds broker 4 to {@code topic}'s replicas. */
    private static Path plannedToBroker4(String topic) {
        Path planFile = TestDirs.newDir(topic).resolve("plan.json");
        planToAddBroker4(topic, planFile);
        return planFile;
    }

    private static Cli.Result planToAddBroker4(String topic, Path planFile) {
        return reassign(ExitStatus.OK, "plan", "--add-brokers", "4", "-t", topic, "-o", planFile.toString());
    }

    /**
     * A plan naming a topic the cluster does not have, or a broker it does not have (another cluster's plan, an edited
     * one), is refused before any change: the broker was refused by Kafka only when its move was asked, after the moves
     * before it had started, and the missing topic was "This server does not host this topic-partition" unnamed.
     */
    @Test
    @Order(11)
    void aPlanOfATopicOrABrokerTheClusterDoesNotHaveIsRefusedBeforeAnyChange() throws Exception {
        String topic = topicOnFirstThree("reassign-foreign", 1, 10, 100);
        TopicPartition partition = new TopicPartition(topic, 0);
        List<Integer> now = replicas(topic).get(partition);
        List<Integer> edited = new ArrayList<>(now);
        edited.set(0, 7);
        Path planFile = TestDirs.newDir("reassign-foreign").resolve("plan.json");
        PlanFile.write(planFile, new ReassignmentPlan(null, "edited", List.of(
                new PartitionMove(topic, 0, now, edited, 0),
                new PartitionMove("no-such-topic-here", 0, List.of(1), List.of(2), 0)), List.of()));
        Cli.Result refused = reassign(ExitStatus.FAILURE, "execute", planFile.toString(), "--throttle", "1MB/s");
        String said = refused.out() + refused.err();
        assertTrue(said.contains("stale plan: no-such-topic-here-0 no longer exists"), said);
        assertTrue(said.contains("stale plan: broker 7 is not in the cluster"), said);
        assertEquals(now, replicas(topic).get(partition), "nothing changed");
        assertFalse(Files.exists(Path.of(planFile + ".journal")), "no run began");
    }

    /**
     * A plan made on another cluster is refused even when its moves fit this one (a staging cluster with the same
     * topics on the same broker IDs): its disk figures, and the review a person gave it, were of the other cluster.
     */
    @Test
    @Order(12)
    void aPlanMadeOnAnotherClusterIsRefusedEvenWhenItsMovesFit() throws Exception {
        String topic = topicOnFirstThree("reassign-other-cluster", 1, 10, 100);
        Path planFile = TestDirs.newDir("reassign-other-cluster").resolve("plan.json");
        planToAddBroker4(topic, planFile);
        ReassignmentPlan made = PlanFile.read(planFile);
        String here;
        try (Admin admin = Admin.create(kafka.clientProperties(Listener.PLAINTEXT))) {
            here = admin.describeCluster().clusterId().get();
        }
        assertEquals(here, made.cluster(), "the plan names the cluster it was made on");
        PlanFile.write(planFile, new ReassignmentPlan("Staging-cluster-id0000", made.goal(), made.moves(),
                made.disks()));

        Cli.Result refused = reassign(ExitStatus.FAILURE, "execute", planFile.toString(), "--throttle", "1MB/s");
        String said = refused.out() + refused.err();
        assertTrue(said.contains("the plan was made on the cluster Staging-cluster-id0000, and this is the cluster "
                + here + ": plan again on this one"), said);
        assertEquals(made.moves().get(0).from(), replicas(topic).get(new TopicPartition(topic, 0)), "nothing changed");
        assertFalse(Files.exists(Path.of(planFile + ".journal")), "no run began");
    }

    /**
     * Mistakes a new user made, each refused in words before anything changed: a journal of a run on another cluster
     * given to {@code resume} or {@code cancel} ({@code cancel} removed this cluster's throttles), the plan file given
     * for the journal ({@code cancel} said "cancelled" while the run's moves went on), a retention allowance below 1
     * (0.5, meant as "half as much again", halved a topic), a batch of 0 (an "unexpected error" with a class name), a
     * journal file that does not exist ({@code check} said "clean"), a log dir's capacity below what it holds (every
     * figure of the plan from a wrong start).
     */
    @Test
    @Order(14)
    void mistakesAreRefusedInWordsBeforeAnythingChanges() throws Exception {
        String topic = topicOnFirstThree("reassign-mistakes", 1, 100, 1_000);
        Path planFile = plannedToBroker4(topic);
        Path dir = planFile.getParent();
        ReassignmentPlan made = PlanFile.read(planFile);

        Cli.Result planGiven = reassign(ExitStatus.FAILURE, "cancel", planFile.toString());
        assertTrue(planGiven.err().contains("the file " + planFile + " holds no run: give the run's journal"),
                planGiven.err());

        Cli.Result allowance = reassign(ExitStatus.USAGE, "execute", planFile.toString(), "--retention-allowance",
                "0.5");
        assertTrue(allowance.err().contains("the retention allowance is a factor of at least 1 over the largest "
                + "partition's size"), allowance.err());
        // accepted and ignored: a user believed the run was limited to that topic
        Cli.Result narrowed = reassign(ExitStatus.USAGE, "execute", planFile.toString(), "-t", "nosuchtopic");
        assertTrue(narrowed.err().contains("--topic is not for sluice reassign execute: it works on the moves its plan "
                + "names"), narrowed.err());
        Cli.Result batch = reassign(ExitStatus.USAGE, "execute", planFile.toString(), "--batch-size", "0");
        assertTrue(batch.err().contains("the batch size must be at least 1, not 0"), batch.err());
        assertFalse((batch.out() + batch.err()).contains("Exception"), batch.err());
        assertFalse(Files.exists(Path.of(planFile + ".journal")), "no run began");

        Path elsewhere = dir.resolve("elsewhere.journal");
        try (Journal journal = Journal.open(elsewhere)) {
            journal.plan(new ReassignmentPlan("Staging-cluster-id0000", made.goal(), made.moves(), made.disks()),
                    List.of(), new RunLimits(10, 0.8));
        }
        for (String verb : List.of("cancel", "resume")) {
            Cli.Result refused = reassign(ExitStatus.FAILURE, verb, elsewhere.toString());
            assertTrue(refused.err().contains("the journal " + elsewhere + " is of a run on another cluster: the plan "
                    + "was made on the cluster Staging-cluster-id0000"), verb + ": " + refused.err());
        }
        assertEquals(1, Journal.read(elsewhere).size(), "nothing was journaled for the refused commands");

        Cli.Result missing = reassign(ExitStatus.FAILURE, "check", "--journal", dir.resolve("typo.journal").toString());
        assertTrue(missing.err().contains("no journal " + dir.resolve("typo.journal")), missing.err());

        Cli.Result capacity = reassign(ExitStatus.USAGE, "plan", "--add-brokers", "4", "-t", topic, "-o",
                dir.resolve("small.json").toString(), "--log-dir-capacity", "1KB");
        assertTrue(capacity.err().contains("--log-dir-capacity: a log dir's capacity of 1,000 bytes is less than "
                + "broker "), capacity.err());
        assertEquals(made.moves().get(0).from(), replicas(topic).get(new TopicPartition(topic, 0)), "nothing moved");
    }

    /**
     * Ctrl-C or SIGTERM during {@code execute} exited at once without a word, leaving the run's throttles on the brokers
     * and nothing to say so. Now it says that the moves go on and what stays set, and how to finish or undo the run; the
     * status is 128 + the signal's number; {@code cancel} then undoes it.
     */
    @Test
    @Order(15)
    void aSignalStopsARunAtOnceSayingWhatItLeavesSetAndHowToFinishIt() throws Exception {
        String topic = topicOnFirstThree("reassign-signal", 1, 1_500, 1_000);
        Path planFile = plannedToBroker4(topic);
        Path journal = Path.of(planFile + ".journal");
        Map<TopicPartition, List<Integer>> before = replicas(topic);
        ChildProcess run = executing("reassign-signal", planFile, "16KiB/s");
        run.awaitLogLine(l -> l.contains("moving " + topic), Duration.ofSeconds(60));
        assertEquals(143, run.stop(Duration.ofSeconds(30)), run.tail());
        String said = run.tail();
        assertTrue(said.contains("sluice reassign: stopped by a signal: the moves under way go on in the cluster, and "
                + "the throttles and guards this run set stay until `sluice reassign resume " + journal
                + "` finishes the run (or `sluice reassign cancel " + journal + "` undoes it)"), said);
        assertTrue(dynamic(new ConfigResource(ConfigResource.Type.BROKER, "4")).containsKey(Throttles.FOLLOWER_RATE),
                "the throttle stays, as said");
        // as said, check shows the move going on without the run and what is set for it (it said only "clean"); a
        // window of 2 s under the throttle is 15 s (past the quota's pause once a burst is spent: 2 s and 5 s windows
        // called this healthy move stalled, and --fix would have cancelled it)
        Cli.Result check = reassign(ExitStatus.OK, "check", "--stall-window", "2s");
        String checked = check.out() + check.err();
        assertTrue(checked.contains("1 partition moves now (" + topic + "-0), with what is set for the moves: ")
                && checked.contains("broker 4 " + Throttles.FOLLOWER_RATE + "=16384"), checked);

        cancelledBackTo(before, topic, journal);
    }

    /**
     * A destination broker frozen (SIGSTOP) while moves copy to it: Kafka's admin client may send the run's question
     * "which moves are under way" to that broker, which holds it; the run then stood still for a minute without a line
     * and ended with "cannot list partition reassignments: no answer within 60 s" (a new user's run, 1 of 3). Each try
     * now waits 10 s and the next goes to another broker: the run says the broker does not answer, waits, and
     * completes once it is thawed.
     */
    @Test
    @Order(16)
    void aFrozenDestinationBrokerIsSaidAndWaitedForWithoutEndingTheRun() throws Exception {
        String topic = topicOnFirstThree("reassign-frozen", 2, 1_500, 1_000);
        Path planFile = plannedToBroker4(topic);
        ChildProcess run = executing("reassign-frozen", planFile, "64KiB/s");
        run.awaitLogLine(l -> l.contains("moving " + topic), Duration.ofSeconds(60));
        kafka.node(4).freeze();
        try {
            run.awaitLogLine(l -> l.contains("broker 4 does not answer (stopped, or cut off from here)"),
                    Duration.ofSeconds(40));
            // the progress says what it waits for, not a time left that grew with every poll (a new user's run)
            run.awaitLogLine(l -> l.contains("waiting for broker 4, which does not answer") && !l.contains(" left"),
                    Duration.ofSeconds(40));
            assertTrue(run.isAlive(), "the run waits: " + run.tail());
        } finally {
            kafka.node(4).thaw();
        }
        assertEquals(ExitStatus.OK, run.waitForExit(), run.tail());
        assertTrue(replicas(topic).values().stream().anyMatch(r -> r.contains(4)), "the moves are done");
        assertNoThrottleOrOverride(topic);

        // the same plan again under a new journal: it set and removed throttles and said "done: 1 partitions moved"
        Cli.Result again = reassign(ExitStatus.OK, "execute", planFile.toString(), "--journal",
                planFile.resolveSibling("again.journal").toString(), "--throttle", "64KiB/s");
        assertTrue(again.err().contains("nothing to move: every partition of " + planFile + " already has the replicas "
                + "the plan gives it"), again.err());
        assertFalse(again.err().contains("set "), "nothing was set: " + again.err());
    }

    /**
     * A plan executed again after its killed run's journal was deleted, while that run's move is under way: the
     * partition's replicas then show both sets, and the plan was called stale (a new user's run); it is this plan's
     * own move, so the run waits for it and ends; `check --fix` then puts back what the killed run left.
     */
    @Test
    @Order(17)
    void aPlanWhoseOwnMoveIsUnderWayIsNotCalledStale() throws Exception {
        String topic = topicOnFirstThree("reassign-own", 2, 1_500, 1_000);
        Path planFile = plannedToBroker4(topic);
        List<PartitionMove> moves = PlanFile.read(planFile).moves();
        assertFalse(moves.isEmpty(), "the plan moves a replica to broker 4");
        ChildProcess killed = child(planFile.getParent(), "reassign-own", ReassignmentRun.AFTER_START,
                "reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "16KiB/s");
        assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
        assertFalse(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "the move is under way");
        Files.delete(Path.of(planFile + ".journal"));

        Cli.Result again = reassign(ExitStatus.OK, "execute", planFile.toString(), "--journal",
                planFile.resolveSibling("again.journal").toString(), "--throttle", "10MB/s");
        assertFalse(again.err().contains("stale"), again.err());
        assertTrue(again.err().contains(" moved; every config it changed is restored"), again.err());
        Map<TopicPartition, List<Integer>> now = replicas(topic);
        moves.forEach(m -> assertEquals(m.to(), now.get(m.topicPartition()), "the plan's move is done"));
        reassign(ExitStatus.OK, "check", "--stall-window", "1s", "--fix");
        assertNoThrottleOrOverride(topic);
    }

    /**
     * A run stopped after journaling its plan and before (or while) setting its throttles resumed with only the
     * throttles whose own change was journaled: none here, so the whole plan copied at full speed (a review). The
     * configs a run sets are journaled with its plan now, and a resume sets them all. And a throttle already set on a
     * broker the plan involves (on purpose, or a crashed run's) is said before the run, which puts it back as it was.
     */
    @Test
    @Order(18)
    void aRunKilledBeforeSettingItsThrottlesIsResumedUnderAllOfThemAndAThrottleSetBeforeIsSaidAndKept()
            throws Exception {
        String topic = topicOnFirstThree("reassign-early", 2, 300, 1_000);
        Path planFile = plannedToBroker4(topic);
        Path journal = Path.of(planFile + ".journal");
        ConfigResource broker4 = new ConfigResource(ConfigResource.Type.BROKER, "4");
        set(broker4, Throttles.FOLLOWER_RATE, "1048576");

        // the disks as they are when a batch starts, not as the plan saw them: below today's use, nothing starts
        Path diskJournal = planFile.resolveSibling("disk.journal");
        Cli.Result full = reassign(ExitStatus.FAILURE, "execute", planFile.toString(), "--journal",
                diskJournal.toString(), "--throttle", "10MB/s", "--no-retention-guard", "--max-disk-use", "1%");
        assertTrue(full.err().contains("note: broker 4 has a throttle set already: " + Throttles.FOLLOWER_RATE
                + "=1048576"), full.err());
        assertTrue(full.err().contains("not started: moving " + topic + "-"), full.err());
        assertTrue(full.err().contains("past the limit of 1.0%"), full.err());
        assertTrue(admin.listPartitionReassignments().reassignments().get(30, TimeUnit.SECONDS).isEmpty(),
                "no move was started");
        reassign(ExitStatus.OK, "cancel", diskJournal.toString());
        assertEquals("1048576", dynamic(broker4).get(Throttles.FOLLOWER_RATE), "put back as it was before the run");
        admin.incrementalAlterConfigs(Map.of(broker4, List.of(new AlterConfigOp(new ConfigEntry(
                Throttles.FOLLOWER_RATE, ""), AlterConfigOp.OpType.DELETE)))).all().get(30, TimeUnit.SECONDS);
        assertNoThrottleOrOverride(topic);

        ChildProcess killed = child(planFile.getParent(), "reassign-early", ReassignmentRun.AFTER_PLAN,
                "reassign", "execute", planFile.toString(), "-b", kafka.bootstrapServers(), "--throttle", "10MB/s",
                "--batch-size", "1", "--max-disk-use", "95%");
        assertEquals(CrashPoints.HALT_STATUS, killed.waitForExit(), killed.tail());
        assertFalse(dynamic(broker4).containsKey(Throttles.FOLLOWER_RATE), "killed before it set a throttle");

        Cli.Result resume = reassign(ExitStatus.OK, "resume", journal.toString(), "--poll", "200ms");
        // the run's limits, not the resume's defaults (10 at once, 80%): a gentle run resumed five times as wide
        assertTrue(resume.err().contains("resuming with --batch-size 1 and --max-disk-use 95.0%, as the run was "
                + "started"), resume.err());
        assertTrue(resume.err().contains("set " + Throttles.FOLLOWER_RATE + "="), resume.err());
        assertTrue(resume.err().contains(" on broker 4"), resume.err());
        assertTrue(resume.err().contains("set " + Throttles.LEADER_REPLICAS + "="), resume.err());
        Map<TopicPartition, List<Integer>> now = replicas(topic);
        PlanFile.read(planFile).moves().forEach(m -> assertEquals(m.to(), now.get(m.topicPartition()), m.toString()));
        assertNoThrottleOrOverride(topic);
    }

    /** {@code sluice reassign ARGS -b <the cluster>}, which must exit with {@code status}. */
    private static Cli.Result reassign(int status, String... args) {
        List<String> line = new ArrayList<>(List.of("reassign"));
        line.addAll(List.of(args));
        line.addAll(List.of("-b", kafka.bootstrapServers()));
        Cli.Result result = Cli.run(line.toArray(String[]::new));
        assertEquals(status, result.status(), () -> String.join(" ", line) + "\n" + result.out() + result.err());
        return result;
    }

    /** A new topic on brokers 1 to 3 holding {@code count} records of {@code valueBytes}. */
    private static String topicOnFirstThree(String prefix, int partitions, int count, int valueBytes) {
        String topic = Names.unique(prefix);
        createOnFirstThree(topic, partitions);
        fill(topic, count, valueBytes);
        return topic;
    }

    /** A topic on brokers 1 to 3 only, as if made before broker 4 joined; the leaders spread over them. */
    private static void createOnFirstThree(String topic, int partitions) {
        Map<Integer, List<Integer>> assignment = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            assignment.put(p, List.of(1 + p % 3, 1 + (p + 1) % 3, 1 + (p + 2) % 3));
        }
        kafka.createTopic(new NewTopic(topic, assignment));
    }

    private static void fill(String topic, int count, int valueBytes) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        String padding = "x".repeat(valueBytes);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(topic, "fill-" + i, padding));
            }
            producer.flush();
        }
    }

    private static Map<TopicPartition, List<Integer>> replicas(String topic) throws Exception {
        Map<TopicPartition, List<Integer>> replicas = new HashMap<>();
        admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions()
                .forEach(p -> replicas.put(new TopicPartition(topic, p.partition()),
                        p.replicas().stream().map(Node::id).toList()));
        return replicas;
    }

    private static Set<Integer> brokers() throws Exception {
        return admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).stream().map(Node::id)
                .collect(Collectors.toSet());
    }

    private static long offset(TopicPartition partition, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(partition, spec)).all().get(30, TimeUnit.SECONDS).get(partition).offset();
    }

    private static Map<String, String> dynamic(ConfigResource resource) throws Exception {
        Map<String, String> values = new HashMap<>();
        admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource).entries().stream()
                .filter(e -> e.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG
                        || e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG)
                .forEach(e -> values.put(e.name(), e.value()));
        return values;
    }

    private static void set(ConfigResource resource, String key, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value),
                AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
    }

    /** No throttle on any broker, and none nor a retention.bytes override on {@code topic} (if given). */
    private static void assertNoThrottleOrOverride(String topic) throws Exception {
        for (int b : brokers()) {
            Map<String, String> values = dynamic(new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(b)));
            Throttles.BROKER_KEYS.forEach(k -> assertFalse(values.containsKey(k), "broker " + b + " " + values));
        }
        if (topic != null) {
            Map<String, String> values = dynamic(new ConfigResource(ConfigResource.Type.TOPIC, topic));
            Throttles.TOPIC_KEYS.forEach(k -> assertFalse(values.containsKey(k), topic + " " + values));
            assertFalse(values.containsKey("retention.bytes"), topic + " " + values);
        }
    }

    /** A condition that may throw while the cluster settles. */
    interface Condition {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Condition condition, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.holds()) {
            assertTrue(System.nanoTime() < deadline, "not within 60 s: " + what);
            Thread.sleep(100);
        }
    }
}
