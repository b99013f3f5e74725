package io.sluice.merge.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A merge frozen (SIGSTOP) with records sent in its open transaction, past its session: another instance takes its
 * output partitions, claims them (fencing it) and merges everything. Thawed, the frozen one goes on to its commit,
 * which can no longer succeed: it stops with an error, and the output is exactly the uninterrupted merge's.
 */
@Tag("slow")
class MergeZombieTest {

    @Test
    void aFrozenMergeThatLostItsPartitionsCanNeverCommitAgain() throws Exception {
        MergeCrashTest.Run run = new MergeCrashTest.Run();
        Path thawed = TestDirs.newDir("merge-zombie").resolve("thawed");
        ChildProcess zombie = run.start(List.of("-Dsluice.pause.at=merge.after-send:3",
                "-Dsluice.pause.until=" + thawed), "merge-zombie");
        zombie.awaitLogLine(l -> l.equals(CrashPoints.PAUSED + "merge.after-send"), Duration.ofSeconds(60));
        zombie.freeze();

        run.finish("merge-successor"); // waits out the zombie's session, claims, merges to the end

        Files.createFile(thawed);
        zombie.thaw();
        OptionalInt status = zombie.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            zombie.kill();
        }
        assertEquals(OptionalInt.of(1), status, () -> "the zombie's commit was refused\n" + zombie.tail());
        run.check();
    }
}
