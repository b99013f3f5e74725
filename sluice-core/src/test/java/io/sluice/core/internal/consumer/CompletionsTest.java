package io.sluice.core.internal.consumer;

import static io.sluice.core.internal.consumer.ConsumerThreadFixture.MIB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The workers' completion messages as the consumer thread takes them. */
class CompletionsTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private final ConsumerThreadFixture loop = new ConsumerThreadFixture();
    /** For the tests of a sink's bytes: completions that see {@link #sink} holding the partitions' bytes. */
    private final SinkHolding sink = new SinkHolding();
    private final Completions completions = new Completions(loop.partitions, loop.budget, sink, loop.pauses);

    @Test
    void aCompletionMovesTheWatermarkAndFreesItsBytes() {
        PartitionState p = loop.assign(P0, 0);
        loop.handOut(p, 0, 3, 100);

        p.completed(1, 100, System.nanoTime());
        p.completed(0, 100, System.nanoTime());
        loop.completions.take();

        assertEquals(2, p.ledger.watermark());
        assertEquals(100, p.bufferedBytes);
        assertEquals(100, loop.budget.used());
        assertEquals(2, loop.completions.completed());
    }

    @Test
    void aCompletionFromAnEarlierAssignmentOfThePartitionIsIgnored() {
        PartitionState earlier = loop.assign(P0, 0);
        loop.handOut(earlier, 0, 2, 100);
        earlier.completed(0, 100, System.nanoTime()); // a worker finishes as the partition moves away and back
        loop.partitions.remove(earlier);
        loop.budget.release(earlier.bufferedBytes);
        PartitionState now = loop.assign(P0, 0);
        loop.handOut(now, 0, 1, 100);

        loop.completions.take();

        assertEquals(0, now.ledger.watermark(), "offset 0 of this assignment is still to do");
        assertTrue(now.ledger.isPending(0));
        assertEquals(100, now.bufferedBytes);
        assertEquals(100, loop.budget.used());
        assertEquals(0, loop.completions.completed());
    }

    @Test
    void aPartitionPausedForTheWindowIsFetchedAgainOnceHalfOfItIsDone() {
        PartitionState p = loop.assign(P0, 0);
        loop.handOut(p, 0, 64, 1);
        loop.pauses.pause(p, PauseReason.WINDOW); // offset 64 did not fit: 64 is the window

        for (long offset = 0; offset < 31; offset++) {
            p.completed(offset, 1, System.nanoTime());
        }
        loop.completions.take();
        assertEquals(Set.of(P0), loop.consumer.paused(), "33 of 64 still outstanding");

        p.completed(31, 1, System.nanoTime());
        loop.completions.take();
        assertEquals(Set.of(), loop.consumer.paused());
    }

    @Test
    void aPartitionPausedForTheBudgetIsFetchedAgainAtHalfOfItsQueueCap() {
        PartitionState p = loop.assign(P0, 0);
        long quarter = p.queueDepth.cap() / 4; // a new partition's queue: one fetch (1 MiB)
        loop.handOut(p, 0, 4, quarter);
        loop.pauses.pause(p, PauseReason.BUDGET);

        p.completed(2, quarter, System.nanoTime()); // done out of order: its bytes are freed all the same
        loop.completions.take();
        assertEquals(Set.of(P0), loop.consumer.paused(), "3/4 of the cap queued, over half");

        p.completed(0, quarter, System.nanoTime());
        loop.completions.take();
        assertEquals(Set.of(), loop.consumer.paused(), "half of the cap queued");
        assertEquals(2 * quarter, loop.budget.used());
    }

    @Test
    void aPartitionWhoseLanesRanDryBeforeItsNextFetchQueuesTwiceAsMuch() {
        PartitionState p = resumedWithHalfItsCapQueued();
        long quarter = p.queueDepth.cap() / 4;
        p.completed(2, quarter, System.nanoTime());
        p.completed(3, quarter, System.nanoTime());
        loop.completions.take(); // and that was all done before the fetch came back

        p.fetchLanded(); // as the dispatcher does

        assertEquals(8 * quarter, p.queueDepth.cap());
    }

    @Test
    void aPartitionWhoseQueuedRecordsAreAllRunningWhenItsNextFetchLandsQueuesTwiceAsMuch() {
        PartitionState p = resumedWithHalfItsCapQueued();
        long quarter = p.queueDepth.cap() / 4;
        p.running.set(2); // both records left are running (an asynchronous handler's): none waits to start

        p.fetchLanded();

        assertEquals(8 * quarter, p.queueDepth.cap());
    }

    @Test
    void aPartitionWhoseNextFetchFindsRecordsWaitingKeepsItsDepth() {
        PartitionState p = resumedWithHalfItsCapQueued();
        long quarter = p.queueDepth.cap() / 4;
        p.running.set(1); // one record runs, one waits: a quarter of the cap, half the resume mark

        p.fetchLanded();

        assertEquals(4 * quarter, p.queueDepth.cap());
    }

    @Test
    void aPartitionKeptPausedByWhatItsSinkHoldsHasTheSinkAskedOnceToFreeIt() {
        PartitionState p = pausedForBudget(2, MIB);
        sink.held = 40 * MIB; // over the resume mark of a 64 MiB share (31.5 MiB) by itself

        p.completed(0, MIB, System.nanoTime());
        completions.take();
        assertEquals(List.of(), sink.asked, "a record is still queued: its write may yet make the sink let go");

        p.completed(1, MIB, System.nanoTime());
        completions.take();
        completions.take();
        assertEquals(List.of(P0), sink.asked, "nothing queued: asked, once per pause");
        assertEquals(Set.of(P0), loop.consumer.paused());

        sink.held = 0; // the sink sealed its files
        completions.take();
        assertEquals(Set.of(), loop.consumer.paused());
    }

    @Test
    void aSinkHoldingLessThanTheResumeMarkIsNotAsked() {
        PartitionState p = pausedForBudget(1, 40 * MIB);
        sink.held = 30 * MIB;

        p.completed(0, 40 * MIB, System.nanoTime());
        completions.take();
        assertEquals(List.of(), sink.asked);
        assertEquals(Set.of(), loop.consumer.paused(), "30 MiB held: under the resume mark, fetched again");
    }

    /**
     * A partition of four records of a quarter of its queue cap each, paused for the budget and fetched again once
     * two of them were done: records 2 and 3 are queued.
     */
    private PartitionState resumedWithHalfItsCapQueued() {
        PartitionState p = loop.assign(P0, 0);
        long quarter = p.queueDepth.cap() / 4;
        loop.handOut(p, 0, 4, quarter);
        loop.pauses.pause(p, PauseReason.BUDGET);
        p.completed(0, quarter, System.nanoTime());
        p.completed(1, quarter, System.nanoTime());
        loop.completions.take();
        assertEquals(Set.of(), loop.consumer.paused(), "fetched again");
        return p;
    }

    /** A partition of {@link #completions} with {@code records} of {@code bytes} each queued, paused for the budget. */
    private PartitionState pausedForBudget(long records, long bytes) {
        PartitionState p = TestPartitions.state(P0, 0, completions.queue());
        loop.partitions.add(p);
        loop.consumer.assign(List.of(P0));
        loop.handOut(p, 0, records, bytes);
        loop.pauses.pause(p, PauseReason.BUDGET);
        return p;
    }

    /** What the consumer thread sees of a sink: the bytes it holds, and whom it was asked to free them for. */
    private static final class SinkHolding implements CommitPolicy {
        long held;
        final List<TopicPartition> asked = new ArrayList<>();

        @Override
        public long heldBytes(PartitionState partition) {
            return held;
        }

        @Override
        public void relieve(PartitionState partition) {
            asked.add(partition.partition);
        }

        @Override
        public void assigned(PartitionState partition, OffsetAndMetadata committed) {
        }

        @Override
        public void maybeCommit(Collection<PartitionState> partitions) {
        }

        @Override
        public void commitFinal(Collection<PartitionState> partitions) {
        }

        @Override
        public void lost(Collection<PartitionState> partitions) {
        }

        @Override
        public CommitCounts counts() {
            return new CommitCounts();
        }
    }
}
