package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** {@code sluice mirror}, {@code validate}, {@code verify} and {@code lag} on a mirror file, as a user types them. */
class MirrorCommandTest {

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void aMirrorFileRunsToTheEndAndEveryRecordIsInTheTarget() throws Exception {
        String topic = Names.unique("cli-mirror");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 300);
        Path file = mirrorFile(topic, "dc1.{topic}", "");

        Cli.Result valid = Cli.run("validate", file.toString(), "--connect");
        assertEquals(ExitStatus.OK, valid.status(), valid.out() + valid.err());
        assertTrue(valid.out().contains("valid: a mirror of topics " + topic), valid.out());
        assertTrue(valid.out().contains("topic " + topic + ": exists"), valid.out());

        Cli.Result run = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("300 records copied"), run.err());
        // the stop line reads the lag the final commit left: it said "300 not yet durable" after a clean stop
        assertTrue(run.err().contains("lag 0, every record done is durable"), run.err());
        assertEquals(300, TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT), "dc1." + topic,
                Duration.ofSeconds(30)).size());

        Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
        assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("CLEAN: the target holds every committed source record exactly once"),
                verify.out());

        Cli.Result lag = Cli.run("lag", file.toString());
        assertEquals(ExitStatus.OK, lag.status(), lag.out() + lag.err());
        assertTrue(lag.out().contains("Group sluice-mirror.") && lag.out().contains("Total lag 0 records"), lag.out());

        Cli.Result groups = Cli.run("mirror", file.toString(), "--groups");
        assertEquals(ExitStatus.OK, groups.status(), groups.out() + groups.err());
        assertTrue(groups.out().contains("translates no group"), groups.out());
    }

    /**
     * A mirror started on a target topic that other records fill (MirrorMaker 2's copies, a mirror of another name)
     * says so at its first claim: its copies go after them, and nothing else said so before verify.
     */
    @Test
    void aTargetTopicHoldingRecordsTheMirrorDidNotCopyIsSaidAtTheStart() throws Exception {
        String topic = Names.unique("cli-mirror-held");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        target.createTopic("dc1." + topic, 2);
        try (var producer = new KafkaProducer<>(TestRecords.producerProperties(target.clientProperties(
                Listener.PLAINTEXT)), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 7; i++) {
                producer.send(new ProducerRecord<>("dc1." + topic, i < 4 ? 0 : 1, "k", "put there by another tool"));
            }
            producer.flush();
        }
        Path file = mirrorFile(topic, "dc1.{topic}", "");

        Cli.Result run = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("the target partitions dc1." + topic + "-0 (offsets 0 to 3), dc1." + topic
                + "-1 (offsets 0 to 2) already hold records, but mirror '"), run.err());
        assertTrue(run.err().contains("aborted, which read_committed readers never see"), run.err());

        Cli.Result again = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, again.status(), again.out() + again.err());
        assertFalse(again.err().contains("already hold records"), "a restart has progress: " + again.err());
    }

    /** Records deleted before they were copied stop the mirror with the mirror's way on, not an engine setting's. */
    @Test
    void recordsDeletedBeforeTheyWereCopiedStopTheMirrorWithTheMirrorsWayOn() throws Exception {
        String topic = Names.unique("cli-mirror-gap");
        source.createTopic(topic, 1);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        Path file = mirrorFile(topic, "dc1.{topic}", "");
        assertEquals(ExitStatus.OK, Cli.run("mirror", file.toString(), "--until-end").status());
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 100, 100);
        source.admin().deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(150)))
                .all().get(30, TimeUnit.SECONDS);

        Cli.Result run = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.FAILURE, run.status(), run.err());
        assertTrue(run.err().contains(topic + "-0: offsets 100 to 149 were deleted"), run.err());
        assertTrue(run.err().contains("A mirror never skips records"), run.err());
        assertFalse(run.err().contains("out-of-range policy"), "a setting the mirror does not have: " + run.err());
        Cli.Result verify = Cli.run("verify", file.toString());
        assertEquals(ExitStatus.FAILURE, verify.status(), verify.out());
        assertTrue(verify.out().contains("before the mirror copied them, 50 offsets lost"),
                verify.out());

        // the way on it names, filled in, for that partition alone (a new mirror name, the advice before, copied every
        // topic again): the progress, in the target exactly once, moved past the gap with Kafka's own means
        String group = Files.readAllLines(file).stream().filter(l -> l.startsWith("  name: "))
                .map(l -> "sluice-mirror." + l.substring("  name: ".length())).findFirst().orElseThrow();
        assertTrue(run.err().contains("kafka-consumer-groups.sh --bootstrap-server " + target.bootstrapServers()
                + " --group " + group + " --reset-offsets --topic dc1." + topic + ":0 --to-offset 150 --execute"),
                run.err());
        target.admin().alterConsumerGroupOffsets(group, Map.of(new TopicPartition("dc1." + topic, 0),
                new OffsetAndMetadata(150))).all().get(30, TimeUnit.SECONDS);
        Cli.Result onward = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, onward.status(), onward.err());
        assertEquals(150, TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT), "dc1." + topic,
                Duration.ofSeconds(30)).size(), "the 100 copied before the gap, and the 50 after it");
    }

    /**
     * Kafka's consumer group protocol (KIP-848, brokers 4.0 and later) instead of the classic one: the broker assigns,
     * and a new group's first member does not wait out {@code group.initial.rebalance.delay.ms} (3 s on a broker's
     * defaults) before its first record. Its session timeout is the broker's: the client may not set one.
     */
    @Test
    void aMirrorOnTheConsumerGroupProtocolCopiesEveryRecordOnceAndTranslatesItsGroups() throws Exception {
        String topic = Names.unique("cli-mirror-848");
        source.createTopic(topic, 2);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 300);
        String appGroup = Names.unique("app-848");
        source.admin().alterConsumerGroupOffsets(appGroup, Map.of(new TopicPartition(topic, 0),
                new OffsetAndMetadata(40), new TopicPartition(topic, 1), new OffsetAndMetadata(60)))
                .all().get(30, TimeUnit.SECONDS);
        Path file = mirrorFile(topic, "{topic}", "  properties:\n    group.protocol: consumer\n", "",
                "  groups: \"" + appGroup + "\"\n");

        Cli.Result run = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("300 records copied"), run.err());
        Cli.Result verify = Cli.run("verify", file.toString(), "--until-source-end");
        assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("CLEAN: the target holds every committed source record exactly once"),
                verify.out());
        Cli.Result groups = Cli.run("mirror", file.toString(), "--groups");
        assertEquals(ExitStatus.OK, groups.status(), groups.out() + groups.err());
        assertTrue(groups.out().contains(appGroup), groups.out());
        assertEquals(2, groups.out().lines().filter(l -> l.contains(appGroup) && l.contains("re-reads 0")).count(),
                groups.out());
    }

    @Test
    void aKeyTheMirrorManagesIsRefusedWithItsLineAndWhy() throws Exception {
        Path file = mirrorFile("t", "{topic}", "  properties:\n    acks: \"1\"\n");
        Cli.Result invalid = Cli.run("validate", file.toString());
        assertEquals(ExitStatus.USAGE, invalid.status(), invalid.out() + invalid.err());
        assertTrue(invalid.err().contains(":10:") && invalid.err().contains("'acks' cannot be set here: always all"),
                invalid.err());
    }

    /**
     * Source and target the same cluster with the topics' own names: each topic would be copied into itself. Said by
     * validate --connect, and by the mirror at start in words (it was an "unexpected error" naming a Java class).
     */
    @Test
    void aMirrorIntoItselfIsRefusedInWordsByValidateAndAtStart() throws Exception {
        String topic = Names.unique("self");
        source.createTopic(topic, 1);
        Path file = mirrorFile(topic, "{topic}", "");
        Files.writeString(file, Files.readString(file).replace(target.bootstrapServers(), source.bootstrapServers()));

        Cli.Result valid = Cli.run("validate", file.toString(), "--connect");
        assertEquals(ExitStatus.FAILURE, valid.status(), valid.out() + valid.err());
        assertTrue(valid.out().contains("clusters FAILED: the source and the target are the same cluster")
                && valid.out().contains("name the target topics with a prefix or a template"), valid.out());

        Cli.Result run = Cli.run("mirror", file.toString(), "--until-end");
        assertEquals(ExitStatus.FAILURE, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("sluice: the source and the target are the same cluster"), run.err());
        assertFalse(run.err().contains("Exception") || run.err().contains("unexpected error"), run.err());
    }

    /**
     * A target nobody listens on is said at once by mirror and verify, naming the cluster's role and the address
     * (they waited out the clients' retries, 50 to 60 s, with a page of their warnings, then said neither).
     */
    @Test
    void aClusterNobodyListensOnIsSaidByRoleBeforeAnyClientIsMade() throws Exception {
        Path file = mirrorFile("t", "dc1.{topic}", "");
        Files.writeString(file, Files.readString(file).replace(target.bootstrapServers(), "127.0.0.1:1"));
        for (String command : new String[] {"mirror", "verify"}) {
            Cli.Result run = Cli.run(command, file.toString());
            assertEquals(ExitStatus.FAILURE, run.status(), run.out() + run.err());
            assertTrue(run.err().contains("(the target cluster): no broker answers") && run.err().contains("127.0.0.1:1"),
                    run.err());
        }
        Cli.Result groups = Cli.run("mirror", file.toString(), "--groups");
        assertEquals(ExitStatus.FAILURE, groups.status(), groups.out() + groups.err());
        assertTrue(groups.err().contains("(the target cluster): no broker answers"), groups.err());
        // lag reads an exactly-once mirror's progress in the target: it waited 30 s, then named a client's exception
        Cli.Result lag = Cli.run("lag", file.toString());
        assertEquals(ExitStatus.FAILURE, lag.status(), lag.out() + lag.err());
        assertTrue(lag.err().contains("no broker answers: 127.0.0.1:1"), lag.err());
        // validate --connect said "no answer within 20 s" of a refused port
        Cli.Result valid = Cli.run("validate", file.toString(), "--connect");
        assertEquals(ExitStatus.FAILURE, valid.status(), valid.out() + valid.err());
        assertTrue(valid.out().contains("target: 127.0.0.1:1 FAILED: 127.0.0.1:1: nothing listens there"), valid.out());

        // a mirror of a pattern lists the source's topics first: lag waited a minute, then printed the admin client's
        // warning and "no answer within 30 s"
        Path pattern = mirrorFile("t", "dc1.{topic}", "");
        Files.writeString(pattern, Files.readString(pattern).replace(source.bootstrapServers(), "127.0.0.1:1")
                .replace("topics: [t]", "pattern: \"t.*\""));
        Cli.Result patternLag = Cli.run("lag", pattern.toString());
        assertEquals(ExitStatus.FAILURE, patternLag.status(), patternLag.out() + patternLag.err());
        assertTrue(patternLag.err().contains("no broker answers: 127.0.0.1:1: nothing listens there"),
                patternLag.err());
    }

    /** --groups shows and exits: an --until-end beside it was ignored without a word. */
    @Test
    void groupsWithUntilEndIsAUsageMistake() throws Exception {
        Cli.Result run = Cli.run("mirror", mirrorFile("t", "dc1.{topic}", "").toString(), "--groups", "--until-end");
        assertEquals(ExitStatus.USAGE, run.status(), run.out() + run.err());
        assertTrue(run.err().contains("--groups shows the groups' translation and runs nothing, so --until-end does "
                + "not go with it"), run.err());
    }

    /** A mirror that never ran (a typo in its name, say) is not called clean: nothing was compared. */
    @Test
    void verifyOfAMirrorThatNeverRanSaysNothingWasVerified() throws Exception {
        String topic = Names.unique("never");
        source.createTopic(topic, 1);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, 10);
        Cli.Result verify = Cli.run("verify", mirrorFile(topic, "dc1.{topic}", "").toString());
        assertEquals(ExitStatus.FAILURE, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().contains("NOT VERIFIED: the mirror has committed no progress")
                && !verify.out().contains("CLEAN"), verify.out());
    }

    @Test
    void aTopicNameTemplateWithoutTheTopicIsRefused() throws Exception {
        Cli.Result invalid = Cli.run("validate", mirrorFile("t", "everything", "").toString());
        assertEquals(ExitStatus.USAGE, invalid.status());
        assertTrue(invalid.err().contains("mirror.topic-name") && invalid.err().contains("{topic}"), invalid.err());
    }

    private Path mirrorFile(String topic, String topicName, String targetExtra) throws Exception {
        return mirrorFile(topic, topicName, "  properties:\n    session.timeout.ms: 6000\n    heartbeat.interval.ms: 500\n",
                targetExtra, "");
    }

    private Path mirrorFile(String topic, String topicName, String sourceProperties, String targetExtra,
            String mirrorExtra) throws Exception {
        Path file = TestDirs.newDir("mirror-cli").resolve("mirror.yaml");
        Files.writeString(file, String.join("\n",
                "source:",
                "  bootstrap-servers: " + source.bootstrapServers(),
                "  topics: [" + topic + "]",
                sourceProperties + "target:",
                "  bootstrap-servers: " + target.bootstrapServers(),
                targetExtra + "mirror:",
                "  name: " + Names.unique("cli"),
                "  topic-name: \"" + topicName + "\"",
                "  commit-interval: 200ms",
                mirrorExtra));
        return file;
    }
}
