package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.internal.consumer.SinkProgress.Reach;
import io.sluice.core.internal.ledger.PartitionLedger;
import io.sluice.core.sink.SinkCheckpoint;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** How far a sink's checkpoint commits: through the offsets the consumer stepped over, never back, never beyond. */
class SinkProgressTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);

    private static SinkCheckpoint at(long offset) {
        return new SinkCheckpoint(offset, "");
    }

    @Test
    void aCheckpointOfEveryRecordHandedOutCommitsUpToThePositionPastTheFinalMarker() {
        PartitionLedger ledger = new PartitionLedger(0, 64);
        for (long o = 0; o < 10; o++) {
            ledger.dispatched(o);
        }
        ledger.positionAt(12); // an aborted record at 10, its abort marker at 11
        Reach reach = Reach.of(ledger);
        assertEquals(new Reach(10, 12), reach);

        SinkProgress progress = new SinkProgress(P0, 0);
        assertEquals(12, progress.offsetOf(at(10), reach));
        assertEquals(7, progress.offsetOf(at(7), reach), "records 7..9 are not durable yet: no further");
    }

    @Test
    void aPartitionWhoseOnlyNewOffsetIsAMarkerCommitsPastIt() {
        PartitionLedger ledger = new PartitionLedger(40, 64);
        ledger.positionAt(41);
        SinkProgress progress = new SinkProgress(P0, 40);

        assertEquals(41, progress.offsetOf(at(40), Reach.of(ledger)),
                "the sink was handed nothing and checkpoints where it was opened");
    }

    @Test
    void commitsNeverGoBackWhenTheSinkAnswersALaterCheckpointWithTheSameOffset() {
        SinkProgress progress = new SinkProgress(P0, 0);
        long first = progress.offsetOf(at(10), new Reach(10, 12));
        progress.sent(at(10), first);
        assertEquals(12, progress.committed());

        // records 12..19 handed out since, still in the sink's buffers
        assertEquals(12, progress.offsetOf(at(10), new Reach(20, 21)));
        assertEquals(15, progress.offsetOf(at(15), new Reach(20, 21)));
        assertEquals(21, progress.offsetOf(at(20), new Reach(20, 21)));
    }

    @Test
    void recordsGivenUpBehindTheCheckpointAreDoneTooUpToThePosition() {
        SinkProgress progress = new SinkProgress(P0, 0);
        // the sink wrote 0..9; 10..14 were rejected and dead-lettered, the last records handed out
        assertEquals(17, progress.offsetOf(at(10), 15, new Reach(15, 17)), "through the marker after them");
        // 10..12 rejected, 13..14 still on their way
        assertEquals(13, progress.offsetOf(at(10), 13, new Reach(15, 17)));
        assertEquals(10, progress.offsetOf(at(10), 10, new Reach(15, 17)), "nothing given up: the checkpoint's own");
    }

    @Test
    void aCheckpointBeyondTheRecordsHandedOutOrBelowTheLastCommitIsTheSinksBug() {
        SinkProgress progress = new SinkProgress(P0, 5);
        IllegalStateException beyond = assertThrows(IllegalStateException.class,
                () -> progress.offsetOf(at(11), new Reach(10, 12)));
        assertTrue(beyond.getMessage().contains("beyond the records handed out (10)"), beyond.getMessage());

        IllegalStateException below = assertThrows(IllegalStateException.class,
                () -> progress.offsetOf(at(4), new Reach(10, 12)));
        assertTrue(below.getMessage().contains("below its last commit 5"), below.getMessage());

        progress.sent(at(10), 12);
        assertEquals(12, progress.offsetOf(at(10), new Reach(10, 12)),
                "the offset the sink last checkpointed stays allowed, though the commit went beyond it");
        assertThrows(IllegalStateException.class, () -> progress.offsetOf(at(9), new Reach(10, 12)));
    }
}
