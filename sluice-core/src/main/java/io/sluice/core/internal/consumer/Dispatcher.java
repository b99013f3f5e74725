package io.sluice.core.internal.consumer;

import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.lane.LaneRouter;
import io.sluice.core.internal.lane.RecordSize;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Hands a poll's records to their lanes, charging each to the ledger and the budget; each lane gets its records of a
 * fetch as one hand-over ({@link LaneBatches}). A record is not handed out when
 * an earlier owner already did it (the commit's completion map), when it is a full window ahead of the oldest
 * unfinished record, or past a bounded run's end: the consumer seeks back to it and the partition pauses until that
 * changes. A partition at its share of the budget pauses after the poll. Where the commit policy wants a commit
 * behind a fetch's first records ({@link CommitPolicy#commitAfter}), they are handed over before it is queued, and the
 * rest after.
 *
 * <p>Threading: the consumer thread; the counters may be read from any thread.
 */
final class Dispatcher {

    private final Consumer<?, ?> consumer;
    private final AssignedPartitions partitions;
    private final LaneRouter router;
    private final MemoryBudget budget;
    private final CommitPolicy commits;
    private final FetchPauses pauses;
    private final RunEnd runEnd;
    private final LaneBatches batches;
    private final LongAdder consumed = new LongAdder();
    private final LongAdder consumedBytes = new LongAdder();

    Dispatcher(Consumer<?, ?> consumer, AssignedPartitions partitions, LaneRouter router, MemoryBudget budget,
            CommitPolicy commits, FetchPauses pauses, RunEnd runEnd) {
        this.consumer = consumer;
        this.partitions = partitions;
        this.router = router;
        this.budget = budget;
        this.commits = commits;
        this.pauses = pauses;
        this.runEnd = runEnd;
        this.batches = new LaneBatches(router.lanesPerPartition());
    }

    void dispatch(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition tp : records.partitions()) {
            PartitionState p = partitions.get(tp);
            if (p == null || !p.isOpen()) {
                continue;
            }
            p.fetchLanded();
            int unordered = 0;
            long dispatched = 0;
            long dispatchedBytes = 0; // counted once per fetch: an atomic add per record shows in profiles
            long end = runEnd.endOf(tp); // once per fetch too: a map lookup per record showed in the mirror's profile
            int commitAfter = commits.commitAfter(p);
            List<ConsumerRecord<byte[], byte[]>> fetched = records.records(tp);
            batches.start(fetched);
            LaneBatches.Target lanes = (lane, batch) -> p.lane(lane).addRun(batch);
            int i = 0;
            for (; i < fetched.size(); i++) {
                ConsumerRecord<byte[], byte[]> record = fetched.get(i);
                long offset = record.offset();
                if (offset >= end) {
                    // past the end seen at start: this run never processes it
                    consumer.seek(tp, offset);
                    pauses.pause(p, PauseReason.END);
                    break;
                }
                if (p.alreadyComplete.isComplete(offset)) {
                    continue; // done by an earlier owner: the completion map says so
                }
                if (!p.ledger.admits(offset)) {
                    // a full window ahead of the oldest unfinished record: fetch it again later
                    consumer.seek(tp, offset);
                    pauses.pause(p, PauseReason.WINDOW);
                    break;
                }
                long bytes = RecordSize.of(record);
                p.ledger.dispatched(offset);
                p.bufferedBytes += bytes;
                budget.charge(bytes);
                dispatched++;
                dispatchedBytes += bytes;
                int lane = router.laneOf(record);
                if (lane == LaneRouter.UNORDERED_LANE) {
                    p.addUnordered(record);
                    unordered++;
                } else {
                    batches.add(lane, i);
                }
                if (dispatched == commitAfter) {
                    batches.handOver(lanes);
                    commits.queueCommit(p); // behind the records so far, ahead of the rest
                }
            }
            batches.handOver(lanes); // the records from a break on were not added
            consumed.add(dispatched);
            consumedBytes.add(dispatchedBytes);
            if (unordered > 0) {
                p.wakeLanes(unordered);
            }
            if (budget.atShare(p.bufferedBytes, commits.heldBytes(p), p.queueDepth.cap())) {
                pauses.pause(p, PauseReason.BUDGET);
            }
        }
    }

    /**
     * The consumer's position covers markers and aborted records the application never sees. Asked without waiting: a
     * position being validated after a leader change is not known until the new leader answers, and asked with the
     * default wait the loop stood still up to a minute (every other partition with it), then failed the engine, or
     * took a stop's wakeup for a failure (a review). Such a partition's position is taken at a later turn.
     */
    void advancePositions() {
        for (PartitionState p : partitions.all()) {
            // a partition stopped at a gap has no position worth asking: the consumer would check the old one against a
            // log that no longer has it (a topic created again), and block, then throw
            if (p.isOpen() && !p.pauses.contains(PauseReason.GAP)) {
                try {
                    p.ledger.positionAt(consumer.position(p.partition, Duration.ZERO));
                } catch (TimeoutException unknownNow) {
                    // being validated or reset: nothing to go by at this turn
                } catch (WakeupException woken) {
                    return; // the loop's poll would have taken it: the loop looks at why it was woken
                }
            }
        }
    }

    long consumed() {
        return consumed.sum();
    }

    long consumedBytes() {
        return consumedBytes.sum();
    }
}
