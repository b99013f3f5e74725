package io.sluice.reassign.execute;

import io.sluice.core.crash.CrashPoints;
import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.cluster.ClusterReader;
import io.sluice.reassign.cluster.DynamicConfigs;
import io.sluice.reassign.guard.PinnedSegments;
import io.sluice.reassign.guard.RetentionGuard;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.journal.ConfigChange;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.journal.RunLimits;
import io.sluice.reassign.plan.ClusterSnapshot;
import io.sluice.reassign.plan.DiskHeadroom;
import io.sluice.reassign.plan.DiskProjection;
import io.sluice.reassign.plan.DiskUse;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Executes a plan, or resumes one a killed run left in its journal: sets the throttles and guarding retentions
 * (journaled first), moves the partitions batch by batch, waiting for each batch to complete, elects the new
 * preferred leaders, and restores every config it changed. A resumed run skips the moves that are done and waits
 * for those under way instead of starting them again.
 *
 * <p>Threading: one thread runs it.
 */
public final class ReassignmentRun {

    /** Crash point: the plan and the configs it will set are journaled; none is set yet. */
    public static final String AFTER_PLAN = "reassign.after-plan";
    /** Crash point: the throttles and guards are set and journaled; no move is started. */
    public static final String AFTER_THROTTLE = "reassign.after-throttle";
    /** Crash point: a batch's moves were requested and journaled; the batch is not complete. */
    public static final String AFTER_START = "reassign.after-start";

    private final Admin admin;
    private final Journal journal;
    private final ExecuteOptions options;
    private final RunListener listener;
    private final Reassignments reassignments;
    /** The brokers that moves copy to which did not answer at the last poll; said when that changes. */
    private Set<Integer> unanswered = Set.of();
    /** The brokers that did not answer the last poll, said or not. */
    private Set<Integer> missedOnce = Set.of();
    /** The bytes copied at this run's first poll, or -1 before it: the time left counts only this run's rate. */
    private long bytesAtStart = -1;

    public ReassignmentRun(Admin admin, Journal journal, ExecuteOptions options, RunListener listener) {
        this.admin = admin;
        this.journal = journal;
        this.options = options;
        this.listener = listener;
        this.reassignments = new Reassignments(admin);
    }

    /** Runs {@code plan}, or the journal's plan when the journal already holds one (a resume). */
    public void run(ReassignmentPlan plan) throws InterruptedException {
        if (journal.isOver()) {
            listener.note("the journal " + journal.file() + " says this run is over; nothing to do");
            return;
        }
        ConfigLedger ledger = new ConfigLedger(new DynamicConfigs(admin), journal);
        List<TemporaryConfig> temporary = new ArrayList<>();
        if (journal.isEmpty()) {
            // every temporary config worked out first (the guards ask the cluster), then journaled with the plan in
            // one line: a run stopped at any later step resumes with all of them
            if (options.throttleBytesPerSecond() > 0) {
                temporary.addAll(Throttles.of(plan.moves(), options.throttleBytesPerSecond()));
            }
            if (options.retentionGuard()) {
                for (RetentionGuard.Guard guard : guards(plan)) {
                    temporary.add(guard.config());
                    listener.note("guarding topic " + guard.config().name() + " while it moves: " + guard.why()
                            + ". Its retention.bytes is " + guard.config().value() + " until the run ends; records "
                            + "beyond it are deleted, oldest first (--no-retention-guard moves without the guard)");
                }
            }
            journal.plan(plan, temporary.stream().map(c -> new ConfigChange(c.type(), c.name(), c.key(), c.value(),
                    null)).toList(), new RunLimits(options.batchSize(), options.maxDiskUse()));
            CrashPoints.reach(AFTER_PLAN);
        } else {
            plan = journal.plan().orElseThrow(() -> new IllegalStateException("the journal " + journal.file()
                    + " holds no plan"));
            listener.note("resuming from the journal " + journal.file());
            // every config the run meant to set, as journaled with its plan: the killed run may have died before
            // setting some (or before journaling their change); and those journaled as changed, for a journal of an
            // earlier version, which has no list with its plan
            Map<String, TemporaryConfig> again = new LinkedHashMap<>();
            journal.intended().orElse(List.of()).forEach(c -> again.put(c.id(), new TemporaryConfig(c.type(),
                    c.name(), c.key(), c.value())));
            journal.pending().forEach(c -> again.putIfAbsent(c.id(), new TemporaryConfig(c.type(), c.name(), c.key(),
                    c.value())));
            temporary.addAll(again.values());
        }
        ledger.apply(temporary).forEach(c -> listener.note("set " + c.key() + "=" + c.value() + " on "
                + (c.type() == ConfigResource.Type.BROKER ? "broker " : "topic ") + c.name()));
        CrashPoints.reach(AFTER_THROTTLE);

        long start = System.nanoTime();
        List<List<PartitionMove>> batches = Batches.of(plan.moves(), options.batchSize());
        int done = 0;
        long copiedBefore = 0;
        for (List<PartitionMove> batch : batches) {
            startUnstarted(batch, plan);
            CrashPoints.reach(AFTER_START);
            copiedBefore = await(batch, done, copiedBefore, plan, start);
            done += batch.size();
        }
        reassignments.electPreferredLeaders(plan.moves().stream().map(PartitionMove::topicPartition)
                .collect(Collectors.toSet()));
        ledger.restoreAll(listener::note, "sluice reassign resume " + journal.file());
        journal.finished();
        listener.progress(new MoveProgress(done, plan.moves().size(), plan.bytesToCopy(), plan.bytesToCopy(),
                Math.max(0, bytesAtStart), Duration.ofNanos(System.nanoTime() - start), Set.of()));
    }

    /** The retention guard's configs: for topics pinned by their timestamps and topics moving to a tight log dir. */
    private List<RetentionGuard.Guard> guards(ReassignmentPlan plan) {
        Set<String> moving = plan.moves().stream().filter(m -> m.replicaMoves() > 0).map(PartitionMove::topic)
                .collect(Collectors.toCollection(TreeSet::new));
        if (moving.isEmpty()) {
            return List.of();
        }
        Set<String> pinned = new TreeSet<>(new PinnedSegments(admin).among(moving));
        Map<String, RetentionGuard.Room> tight = tightRooms(plan);
        Set<String> guarded = new TreeSet<>(pinned);
        guarded.addAll(tight.keySet());
        // never the cluster's own topics, the journal, or a compacted topic: deleting a compacted topic's old
        // segments loses the latest value of keys (the group offsets, a state store's changelog), not old records
        guarded.removeIf(topic -> topic.startsWith("__") || topic.equals(ClusterJournal.TOPIC));
        if (guarded.isEmpty()) {
            return List.of();
        }
        ClusterSnapshot snapshot = new ClusterReader(admin).snapshot();
        DynamicConfigs configs = new DynamicConfigs(admin);
        Map<String, Long> own = new HashMap<>();
        Set<String> compacted = new TreeSet<>();
        configs.dynamicValues(guarded.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList())
                .forEach((resource, values) -> {
                    String value = values.get(RetentionGuard.RETENTION_BYTES);
                    if (value != null) {
                        own.put(resource.name(), Long.parseLong(value));
                    }
                    if (String.valueOf(values.get(RetentionGuard.CLEANUP_POLICY)).contains("compact")) {
                        compacted.add(resource.name());
                    }
                });
        guarded.removeAll(compacted);
        pinned.retainAll(guarded);
        tight.keySet().retainAll(guarded);
        return RetentionGuard.of(snapshot, pinned, tight, options.allowance(), own);
    }

    /**
     * For each topic moving to a tight log dir, the room of the tightest it moves to: the bytes that dir has left under
     * the limit at the move's peak, shared by the replicas moving there.
     */
    private Map<String, RetentionGuard.Room> tightRooms(ReassignmentPlan plan) {
        DiskHeadroom headroom = new DiskHeadroom(options.maxDiskUse());
        Map<Integer, DiskUse> tightest = new HashMap<>();
        for (DiskUse use : headroom.tight(plan.disks(), ExecuteOptions.TIGHT_MARGIN)) {
            tightest.merge(use.broker(), use, (a, b) -> left(headroom, a) <= left(headroom, b) ? a : b);
        }
        Map<Integer, Integer> arriving = new HashMap<>();
        plan.moves().forEach(m -> m.adding().stream().filter(tightest::containsKey)
                .forEach(b -> arriving.merge(b, 1, Integer::sum)));
        Map<String, RetentionGuard.Room> rooms = new TreeMap<>();
        for (PartitionMove move : plan.moves()) {
            for (int broker : move.adding()) {
                DiskUse use = tightest.get(broker);
                if (use != null) {
                    RetentionGuard.Room room = new RetentionGuard.Room(broker, use.logDir(),
                            left(headroom, use) / arriving.get(broker), use.peakShare(), headroom.maxShare());
                    rooms.merge(move.topic(), room, (a, b) -> a.perReplica() <= b.perReplica() ? a : b);
                }
            }
        }
        return rooms;
    }

    private static long left(DiskHeadroom headroom, DiskUse use) {
        return Math.max(0, headroom.limitBytes(use) - use.peak());
    }

    private void startUnstarted(List<PartitionMove> batch, ReassignmentPlan plan) {
        Set<TopicPartition> partitions = batch.stream().map(PartitionMove::topicPartition).collect(Collectors.toSet());
        Map<TopicPartition, List<Integer>> now = reassignments.replicas(
                batch.stream().map(PartitionMove::topic).collect(Collectors.toSet()));
        Set<TopicPartition> ongoing = reassignments.ongoing(partitions).keySet();
        List<PartitionMove> gone = batch.stream().filter(m -> now.get(m.topicPartition()) == null).toList();
        if (!gone.isEmpty()) {
            // started, the whole batch's request failed after the others were requested, and every resume again
            listener.note("not moved, gone from the cluster (their topics were deleted since): "
                    + Reassignments.names(gone));
        }
        List<PartitionMove> toStart = batch.stream()
                .filter(m -> now.get(m.topicPartition()) != null && !m.to().equals(now.get(m.topicPartition()))
                        && !ongoing.contains(m.topicPartition()))
                .toList();
        List<String> changed = toStart.stream().filter(m -> !m.from().equals(now.get(m.topicPartition())))
                .map(m -> m.topic() + "-" + m.partition() + " has replicas " + now.get(m.topicPartition()) + ", not the "
                        + m.from() + " the plan moves it from")
                .toList();
        if (!changed.isEmpty()) {
            // someone else moved it since the run began: moving it now would undo their move, and its copy would not
            // be throttled on the side the plan did not know
            throw new ClusterException("not started: the cluster changed under the run (" + String.join("; ", changed)
                    + "); `sluice reassign cancel` with the run's journal undoes the moves this run made, then plan "
                    + "again", null);
        }
        if (toStart.isEmpty()) {
            return;
        }
        refuseIfDisksWouldFill(toStart, plan);
        journal.started(toStart.stream().map(m -> m.topic() + "-" + m.partition()).toList());
        reassignments.start(toStart);
        listener.note("moving " + Reassignments.names(toStart));
    }

    /**
     * The batch's copies projected on the log dirs as they are now, not as when the plan was made: a batch that would
     * take one past {@code --max-disk-use} is not started. Earlier batches have ended (their copies are in the
     * figures, their removals too), so the projection is this batch's alone. Log dirs are taken to have the size the
     * plan took ({@code --log-dir-capacity}), or the size their brokers report.
     */
    private void refuseIfDisksWouldFill(List<PartitionMove> toStart, ReassignmentPlan plan) {
        DiskHeadroom headroom = new DiskHeadroom(options.maxDiskUse());
        ClusterSnapshot snapshot = new ClusterReader(admin).snapshot();
        if (plan.logDirCapacity() != null) {
            try {
                snapshot = snapshot.withLogDirCapacity(plan.logDirCapacity());
            } catch (IllegalArgumentException e) {
                throw new DiskWouldFillException("not started: moving " + Reassignments.names(toStart) + " now: "
                        + e.getMessage() + " (the plan took each log dir to be that size)");
            }
        }
        List<DiskUse> over = headroom.exceeded(DiskProjection.of(snapshot, toStart));
        if (!over.isEmpty()) {
            DiskUse first = over.get(0);
            throw new DiskWouldFillException("not started: moving " + Reassignments.names(toStart) + " now would take "
                    + "broker " + first.broker() + "'s " + first.logDir() + " to " + DiskUse.percent(first.peakShare())
                    + " of its disk at the peak, past the limit of " + DiskUse.percent(headroom.maxShare())
                    + (over.size() > 1 ? " (and " + (over.size() - 1) + " more log dir(s))" : "") + "; it holds "
                    + DiskUse.percent((double) first.now() / first.capacity()) + " now (the plan's figures are from when it "
                    + "was made). Free space there, or raise --max-disk-use");
        }
    }

    /** Waits until no move of the batch is under way; returns the bytes copied by the batches so far. */
    private long await(List<PartitionMove> batch, int doneBefore, long copiedBefore, ReassignmentPlan plan, long start)
            throws InterruptedException {
        Set<TopicPartition> partitions = batch.stream().map(PartitionMove::topicPartition).collect(Collectors.toSet());
        long batchBytes = batch.stream().mapToLong(m -> m.bytes() * m.replicaMoves()).sum();
        long shown = copiedBefore;
        while (true) {
            Set<TopicPartition> ongoing = reassignments.ongoing(partitions).keySet();
            if (ongoing.isEmpty()) {
                // the batch's moves ended: nothing waits on a broker now, whether it answers or not
                unanswered.forEach(broker -> listener.note("the moves that waited for broker " + broker + " are over "
                        + "(done, or cancelled elsewhere)"));
                unanswered = Set.of();
                missedOnce = Set.of();
                refuseUndone(batch);
                return copiedBefore + batchBytes;
            }
            List<PartitionMove> moving = batch.stream().filter(m -> ongoing.contains(m.topicPartition())).toList();
            Reassignments.Copies copies = reassignments.copies(moving);
            sayUnanswered(copies.unanswered(), moving);
            // a broker that does not answer counts 0 meanwhile: the line keeps what it showed rather than go back
            shown = Math.max(shown, copiedBefore + copies.bytes() + batch.stream()
                    .filter(m -> !ongoing.contains(m.topicPartition())).mapToLong(m -> m.bytes() * m.replicaMoves())
                    .sum());
            if (bytesAtStart < 0) {
                bytesAtStart = shown;
            }
            listener.progress(new MoveProgress(doneBefore + batch.size() - ongoing.size(), plan.moves().size(),
                    shown, plan.bytesToCopy(), bytesAtStart, Duration.ofNanos(System.nanoTime() - start),
                    unanswered));
            Thread.sleep(options.poll().toMillis());
        }
    }

    /**
     * Stops the run when a move of the batch ended with its replicas elsewhere than the plan puts them: cancelled by
     * another run or by hand, and this run said "done: moved" of moves that never happened (a new user's run). Asked
     * twice, a poll apart: the broker that answers may not know yet of a move that just ended. A partition whose topic
     * is gone is nothing to move.
     */
    private void refuseUndone(List<PartitionMove> batch) throws InterruptedException {
        List<PartitionMove> undone = undone(batch);
        if (!undone.isEmpty()) {
            Thread.sleep(options.poll().toMillis());
            undone = undone(undone);
        }
        if (!undone.isEmpty()) {
            Map<TopicPartition, List<Integer>> now = replicasOf(undone);
            throw new IllegalStateException("moves ended without their replicas where the plan puts them, cancelled "
                    + "by another run or by hand: " + String.join("; ", undone.stream().map(m -> m.topicPartition()
                    + " is on brokers " + now.get(m.topicPartition()) + ", not " + m.to()).toList())
                    + ". `sluice reassign resume " + journal.file() + "` moves them again and restores what this run "
                    + "set once done, `sluice reassign cancel " + journal.file() + "` gives them up and restores it "
                    + "now");
        }
    }

    /** The moves whose partition exists without every replica the plan gives it. */
    private List<PartitionMove> undone(List<PartitionMove> moves) {
        Map<TopicPartition, List<Integer>> now = replicasOf(moves);
        // a cancelled move goes back to the replicas before it; a finished one may still show its old replicas beside
        // the new for a moment (the metadata the admin client reads trails the reassignment's end)
        return moves.stream().filter(m -> now.containsKey(m.topicPartition())
                && !now.get(m.topicPartition()).isEmpty() && !now.get(m.topicPartition()).containsAll(m.to()))
                .toList();
    }

    private Map<TopicPartition, List<Integer>> replicasOf(List<PartitionMove> moves) {
        return reassignments.replicas(moves.stream().map(PartitionMove::topic).collect(Collectors.toSet()));
    }

    /**
     * Says once when a broker that moves copy to stops answering (stopped, or cut off: its moves cannot go on, and
     * the run waits with them; the line stood still without a word, and the run ended a minute later), and once when
     * it answers again. A broker is said after two polls in a row without its answer: one slow answer (a busy broker
     * with many partitions) is not an outage.
     */
    private void sayUnanswered(Set<Integer> missed, List<PartitionMove> moving) {
        Set<Integer> now = new java.util.TreeSet<>(missed);
        now.retainAll(missedOnce);
        now.addAll(unanswered.stream().filter(missed::contains).toList());
        missedOnce = Set.copyOf(missed);
        for (int broker : now) {
            if (!unanswered.contains(broker)) {
                listener.note("broker " + broker + " does not answer (stopped, or cut off from here): the moves that "
                        + "copy to it (" + Reassignments.names(moving.stream().filter(m -> m.adding().contains(broker))
                        .toList()) + ") cannot go on until it is back, and this run waits for them. To give them up "
                        + "instead, stop this run (Ctrl-C) and run sluice reassign cancel " + journal.file() + " with the same "
                        + "--bootstrap-servers");
            }
        }
        for (int broker : unanswered) {
            if (!now.contains(broker)) {
                listener.note("broker " + broker + " answers again: the moves that copy to it go on");
            }
        }
        unanswered = Set.copyOf(now);
    }
}
