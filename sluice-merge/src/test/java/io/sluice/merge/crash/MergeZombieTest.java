package io.sluice.merge.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.crash.CrashPoints;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.Set;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.audit.MergeAudit;
import io.sluice.merge.audit.MergeAuditReport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A merge frozen (SIGSTOP) with records sent, past its session, just before a commit: another instance takes its
 * output partitions, claims them and merges everything. Thawed, the frozen one goes on to its commit, which can no
 * longer succeed: it stops with an error. Exactly once (its records in its open transaction, which the claim fenced
 * and aborted), the output is exactly the uninterrupted merge's; at least once (its commit refused by the owners
 * group's coordinator), the output is the merge order with the frozen one's uncommitted window repeated, plus, after
 * the successor's records, whatever its producers still held when it froze: copies, which verify names out of order.
 */
@Tag("slow")
@Execution(ExecutionMode.CONCURRENT) // two cases at a time (junit-platform.properties): each has its own topics
class MergeZombieTest {

    @ParameterizedTest
    @EnumSource(MergeDelivery.class)
    void aFrozenMergeThatLostItsPartitionsCanNeverCommitAgain(MergeDelivery delivery) throws Exception {
        MergeCrashTest.Run run = new MergeCrashTest.Run(delivery);
        Path thawed = TestDirs.newDir("merge-zombie").resolve("thawed");
        ChildProcess zombie = run.start(List.of("-Dsluice.pause.at=merge.after-send:3",
                "-Dsluice.pause.until=" + thawed), "merge-zombie");
        zombie.awaitLogLine(l -> l.equals(CrashPoints.PAUSED + "merge.after-send"), Duration.ofSeconds(60));
        zombie.freeze();

        run.finish("merge-successor"); // waits out the zombie's session, claims, merges to the end

        Files.createFile(thawed);
        zombie.thaw();
        // the refusal itself, by who refused: the transaction coordinator fenced its producer (exactly once; the
        // fence is the cause of whatever the client threw), the owners group no longer counts it a member (at least
        // once); and then it stops by itself
        String failure = zombie.awaitLogLine(l -> l.startsWith(MergeChild.FAILED), Duration.ofSeconds(60));
        assertTrue(delivery == MergeDelivery.EXACTLY_ONCE
                ? failure.contains("ProducerFencedException") || failure.contains("InvalidProducerEpochException")
                : failure.contains("no longer owns it"), "the zombie's commit was refused: " + failure);
        OptionalInt status = zombie.exitStatusWithin(Duration.ofSeconds(60));
        if (status.isEmpty()) {
            zombie.kill();
        }
        assertEquals(OptionalInt.of(1), status, () -> "the zombie stopped with an error\n" + zombie.tail());
        if (delivery == MergeDelivery.EXACTLY_ONCE) {
            run.check();
        } else {
            // at least once, only the zombie's commits are fenced, not its writes (docs/merge.md): what its producers
            // held when it froze (the other worker's partition may have had a turn sent, not yet flushed) goes out
            // when it thaws, after the successor's records, and verify names those copies out of order. Nothing may
            // be missing or changed, and every record out of order must be a copy of one already there.
            MergeAuditReport audit = MergeAudit.run(MergeChild.config(run.args()).build());
            for (MergeAuditReport.Partition p : audit.partitions()) {
                assertTrue(Set.of("out of order").containsAll(p.problems().keySet()), audit.text());
                assertTrue(p.problemCount("out of order") <= p.repeatedRecords(), "only copies are out of order: "
                        + audit.text());
            }
        }
    }
}
