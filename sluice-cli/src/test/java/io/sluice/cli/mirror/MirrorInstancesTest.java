package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.Main;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.GroupHolder;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.junit.jupiter.api.Test;

/**
 * Two instances of one exactly-once mirror file, each {@code sluice mirror --until-end} in a JVM of its own, split the
 * partitions and both exit 0 (issue 13): each learns that the other's partitions are done from the progress in the
 * target, since an exactly-once mirror never commits the source group.
 *
 * <p>Threading: the test thread; the instances are child processes.
 */
class MirrorInstancesTest {

    private static final int PARTITIONS = 4;
    private static final int RECORDS = 2_000;
    private static final Pattern COPIED = Pattern.compile("([\\d,]+) records copied");

    private final KafkaCluster source = SharedKafka.cluster();
    private final KafkaCluster target = SharedKafka.second();

    @Test
    void twoInstancesUntilTheEndSplitThePartitionsBothExitZeroAndEveryRecordIsCopiedOnce() throws Exception {
        String topic = Names.unique("cli-two");
        source.createTopic(topic, PARTITIONS);
        TestRecords.produceNumbered(source.clientProperties(Listener.PLAINTEXT), topic, 0, RECORDS);
        String name = Names.unique("two");
        Path file = mirrorFile(topic, name);
        String group = "sluice-mirror." + name;
        ChildProcess first = null;
        ChildProcess second = null;
        // a member that never copies holds every partition first, so that neither instance can end before both own
        // partitions (else the first to join might copy everything alone)
        try (GroupHolder holder = new GroupHolder(source.clientProperties(Listener.PLAINTEXT), group, topic)) {
            holder.pollUntil(() -> holder.held() == PARTITIONS, Duration.ofSeconds(60),
                    "the holder owns every partition");
            first = start(file, "mirror-first");
            second = start(file, "mirror-second");
            // the holder keeps polling, so that it takes part in the rebalances that give the instances partitions;
            // 90 s, as two JVMs start meanwhile
            holder.pollUntil(() -> instancesOwningPartitions(group) == 2, Duration.ofSeconds(90),
                    "both instances own partitions");
            holder.close(); // leaves the group: its partitions go to the two instances, which now split them all

            OptionalInt firstStatus = first.exitStatusWithin(Duration.ofSeconds(90));
            OptionalInt secondStatus = second.exitStatusWithin(Duration.ofSeconds(90));
            String firstLog = Files.readString(first.logFile(), StandardCharsets.UTF_8);
            String secondLog = Files.readString(second.logFile(), StandardCharsets.UTF_8);
            assertEquals(OptionalInt.of(ExitStatus.OK), firstStatus, "the first instance exits 0:\n" + first.tail());
            assertEquals(OptionalInt.of(ExitStatus.OK), secondStatus, "the second instance exits 0:\n" + second.tail());
            long firstCopied = copied(firstLog);
            long secondCopied = copied(secondLog);
            assertTrue(firstCopied > 0 && secondCopied > 0, "both copied: " + firstCopied + " / " + secondCopied);
            assertEquals(RECORDS, firstCopied + secondCopied, "no record copied by both");
        } finally {
            for (ChildProcess child : new ChildProcess[] {first, second}) {
                if (child != null && child.isAlive()) {
                    child.kill();
                }
            }
        }
        List<String> values = TestRecords.values(TestRecords.readAll(target.clientProperties(Listener.PLAINTEXT),
                topic, Duration.ofSeconds(30)));
        assertEquals(LongStream.range(0, RECORDS).mapToObj(i -> "v" + i).sorted().toList(),
                values.stream().sorted().toList(), "a read_committed reader of the target sees every record once");
    }

    /** Members of the group, other than the holder, that own partitions now. */
    private long instancesOwningPartitions(String group) {
        try {
            ConsumerGroupDescription description = source.admin().describeConsumerGroups(List.of(group))
                    .describedGroups().get(group).get(30, TimeUnit.SECONDS);
            return description.members().stream()
                    .filter(m -> !m.clientId().equals(GroupHolder.CLIENT_ID))
                    .filter(m -> !m.assignment().topicPartitions().isEmpty())
                    .count();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe group " + group, e);
        }
    }

    private static ChildProcess start(Path file, String name) {
        return ChildJvm.builder(name)
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m", "-XX:+UseSerialGC"))
                .mainClass(Main.class.getName())
                .args("mirror", file.toString(), "--until-end")
                .workDir(file.getParent())
                .build()
                .start();
    }

    /** The count in the run's closing line, "N records copied (...)". */
    private static long copied(String log) {
        Matcher m = COPIED.matcher(log);
        String last = null;
        while (m.find()) {
            last = m.group(1);
        }
        assertTrue(last != null, "the run says what it copied:\n" + log);
        return Long.parseLong(last.replace(",", ""));
    }

    /** An exactly-once mirror (the default delivery) keeping the topic's name, with a lowered session timeout. */
    private Path mirrorFile(String topic, String name) throws Exception {
        Path file = TestDirs.newDir("mirror-instances").resolve("mirror.yaml");
        Files.writeString(file, String.join("\n",
                "source:",
                "  bootstrap-servers: " + source.bootstrapServers(),
                "  topics: [" + topic + "]",
                "  properties:",
                "    session.timeout.ms: 6000",
                "    heartbeat.interval.ms: 500",
                "target:",
                "  bootstrap-servers: " + target.bootstrapServers(),
                "mirror:",
                "  name: " + name,
                "  commit-interval: 200ms",
                ""));
        return file;
    }
}
