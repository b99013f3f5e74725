package io.sluice.merge.run;

import io.sluice.core.commit.TargetWait;
import io.sluice.core.crash.CrashPoints;
import io.sluice.merge.commit.MergeCommit;
import io.sluice.merge.merging.MergeClock;
import io.sluice.merge.merging.PartitionMerge;
import io.sluice.merge.state.MergeState;
import io.sluice.merge.state.StateCodec;
import io.sluice.merge.write.OutputPartition;
import java.time.Duration;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * One output partition as its worker runs it: the merge, the output it writes to, and when it commits (a transaction,
 * or at least once: the acknowledged records' positions) — as soon as the partition has its first records, then every
 * commit interval while it has more, and once an hour when idle (the progress group has no members, so unrefreshed
 * positions would expire). A state read at the claim is committed again at the first turn: a partition idle for days
 * under runs shorter than an hour (a bounded merge from cron, restarts) never lived to its hourly commit, its state
 * expired while the others' did not, and the next claim merged its inputs into the output again (a review).
 *
 * <p>Threading: its worker thread only.
 */
final class PartitionTask {

    /**
     * After the records were sent (exactly once: into the transaction; at least once: and acknowledged) and before
     * the commit: a crash here must lose nothing.
     */
    static final String AFTER_SEND = "merge.after-send";
    /** After a commit returned: a crash here must not merge the committed records again. */
    static final String AFTER_COMMIT = "merge.after-commit";

    private static final int TURN = 512;
    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(60);

    final TopicPartition output;
    final PartitionMerge merge;
    private final OutputPartition out;
    private final MergeCommit commit;
    private final StateCodec codec;
    private final long commitIntervalMillis;
    private final long recommitMillis;
    private long committedMoves;
    private long lastCommitAt;
    private boolean everCommitted;
    private PartitionMerge.Halt lastHalt = PartitionMerge.Halt.LIMIT;

    /** @param claimedState whether the partition's state was read at its claim (a merge before committed it) */
    PartitionTask(TopicPartition output, PartitionMerge merge, OutputPartition out, MergeCommit commit,
            StateCodec codec, Duration commitInterval, Duration recommit, long now, boolean claimedState) {
        this.output = output;
        this.merge = merge;
        this.out = out;
        this.commit = commit;
        this.codec = codec;
        this.commitIntervalMillis = commitInterval.toMillis();
        this.recommitMillis = recommit.toMillis();
        this.committedMoves = merge.moves();
        this.lastCommitAt = claimedState ? now - recommitMillis : now; // due at the first turn: refreshed
    }

    /**
     * Commits when due, merges a turn's worth and commits when due; true if anything was merged. The commit before
     * the turn is for an instance that was frozen: it learns whether it still owns the partition before it writes
     * more (at least once, its records are not fenced, only its commits).
     */
    boolean turn(long now) throws Exception {
        if (commitDue(now)) {
            commit(now);
        }
        long before = merge.moves();
        lastHalt = merge.advance(out, TURN, now);
        boolean moved = merge.moves() > before;
        long after = MergeClock.now(); // a turn's sends can wait for the output's buffer: its age counts too
        if (commitDue(after)) {
            commit(after);
        }
        return moved;
    }

    private boolean commitDue(long now) {
        boolean pending = merge.moves() > committedMoves;
        return pending && (!everCommitted || now - lastCommitAt >= commitIntervalMillis)
                || !pending && now - lastCommitAt >= recommitMillis;
    }

    /** Commits what was merged so far, if anything (the partition is handed over or the merge stops). */
    void finish(long now) throws Exception {
        if (merge.moves() > committedMoves) {
            commit(now);
        }
    }

    /** Whether the merge is done for a bounded run: every input at its end, everything merged and committed. */
    boolean finished(long now) {
        return lastHalt == PartitionMerge.Halt.IDLE && merge.moves() == committedMoves && merge.finished(now);
    }

    /** When this partition wants to run again though nothing arrives: a commit falls due or a wait runs out. */
    long wakeAt() {
        long due = merge.moves() > committedMoves ? lastCommitAt + commitIntervalMillis
                : lastCommitAt + recommitMillis;
        return Math.min(due, merge.wakeAt());
    }

    private void commit(long now) throws Exception {
        // at least once: every record sent is acknowledged before the positions move past it
        out.awaitingTarget(TargetWait.Kind.RECORDS, () -> commit.flush(output));
        out.checkSends();
        MergeState state = merge.state();
        CrashPoints.reach(AFTER_SEND);
        out.awaitingTarget(commit.commitWait(), () -> commit.commit(output, new OffsetAndMetadata(state.emitted(), codec.encode(state)),
                COMMIT_TIMEOUT));
        CrashPoints.reach(AFTER_COMMIT);
        out.committed();
        committedMoves = merge.moves();
        lastCommitAt = now;
        everCommitted = true;
    }
}
