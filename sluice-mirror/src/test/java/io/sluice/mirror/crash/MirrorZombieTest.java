package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Health;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.process.ChildProcess;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A zombie mirror: instance A (a child JVM) is held at the most dangerous step, its transaction holding copies and
 * source offsets but not committed, and frozen there with SIGSTOP. Its session (6 s) expires; instance B, of the same
 * mirror, takes every partition, and its claim bumps the epoch of each partition's transactional ID, aborting what A
 * left open. B copies on to the end. Then A resumes right at its commit: the target's transaction coordinator refuses
 * it (A's producer is fenced), so A never commits a transaction again and the target stays an exact copy. Fencing
 * comes from Kafka's epochs, not from timing: A resumes with its commit already in hand.
 */
@Tag("slow")
class MirrorZombieTest {

    private static final int PARTITIONS = 2;

    private final Clusters clusters = new Clusters(SharedKafka.cluster(), SharedKafka.second());

    @Test
    void aFrozenInstanceThatLostItsPartitionsNeverCommitsAgain() throws Exception {
        SourceTopic topic = new SourceTopic(clusters.source(), "mzombie", PARTITIONS);
        topic.produce(200);
        topic.commitAndAbort(20);
        String name = Names.unique("mzombie");
        Path thawed = TestDirs.newDir("mirror-zombie").resolve("thawed");

        ChildProcess a = MirrorChild.start(clusters, topic.name(), name, "zombie-a", List.of(
                "-Dsluice.pause.at=" + CrashPoints.TRANSACTION_BEFORE_COMMIT + ":1",
                "-Dsluice.pause.until=" + thawed));
        a.awaitLogLine(l -> l.equals(CrashPoints.PAUSED + CrashPoints.TRANSACTION_BEFORE_COMMIT),
                Duration.ofSeconds(60));
        a.freeze();
        topic.produce(200); // B has more to copy than A ever saw

        // B: a dynamic member of the same mirror; it gets the partitions once A's session has expired
        MirrorConfig config = clusters.mirror(name, topic.name()).untilEnd(true).build();
        try (Mirror b = Mirror.start(config)) {
            assertTrue(b.awaitTermination(Duration.ofSeconds(60)), "B copied to the end");
            assertEquals(Health.STOPPED, b.engine().health(), () -> "B failed: " + b.engine().failure().orElse(null));
        }
        TargetState.assertExactlyOnce(clusters, config, topic);

        Files.createFile(thawed);
        a.thaw();
        // A's held lane commits now, and must be refused; A then stops, as the engine does on a failed commit
        String ended = a.awaitLogLine(l -> l.startsWith(MirrorChild.ENDED), Duration.ofSeconds(60));
        System.out.println("[mirror-zombie] A after resuming: " + ended + "; its commit: " + a.tail().lines()
                .filter(l -> l.contains("did not certainly succeed")).findFirst().orElse("none logged"));
        assertNotEquals(MirrorChild.ENDED + Health.STOPPED, ended, "A's held commit cannot have succeeded");
        assertEquals(1, a.exitStatusWithin(Duration.ofSeconds(30)).orElseThrow(), "A ended on its refused commit");
        TargetState.assertExactlyOnce(clusters, config, topic);
    }
}
