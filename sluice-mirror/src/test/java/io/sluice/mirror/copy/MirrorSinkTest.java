package io.sluice.mirror.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.mirror.Mirror;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The sink's pure logic. Its counts say what its commits made count: a stopped instance's line said "1,311,236 records
 * copied" of a topic of 1,220,000 records, counting the copies of transactions that aborted (found by a chaos run).
 * Its promise that copies can be sent without waiting (for the engine's consumer thread, docs/design/inline-runs.md)
 * holds only once a copy of the partition was sent recently, and never after the mirror failed.
 */
class MirrorSinkTest {

    private static final TopicPartition SOURCE = new TopicPartition("orders", 0);

    @Test
    void copiesCountOnceTheirCommitCameAndThoseOfAnAbortedTransactionNever() throws Exception {
        MirrorSink sink = new MirrorSink(new LandedWrites(), true, TopicNaming.prefix("dc1."), "source-cluster",
                "target-cluster");
        sink.open(SOURCE, Uuid.randomUuid(), 0, Optional.empty());
        write(sink, 0, 3);
        sink.committed(SOURCE, sink.checkpoint(SOURCE, false));
        assertCounts(sink, 3, 3);

        write(sink, 3, 2);
        SinkCheckpoint aborted = sink.checkpoint(SOURCE, false);
        sink.notCommitted(SOURCE, aborted, true);
        assertCounts(sink, 3, 5);

        write(sink, 5, 1);
        SinkCheckpoint first = sink.checkpoint(SOURCE, false);
        write(sink, 6, 1);
        SinkCheckpoint second = sink.checkpoint(SOURCE, false);
        assertCounts(sink, 3, 7);
        sink.committed(SOURCE, second); // covers the checkpoint before it, whose answer is not needed
        assertCounts(sink, 5, 7);
        sink.committed(SOURCE, first);
        assertCounts(sink, 5, 7);
    }

    @Test
    void atLeastOnceCopiesOfAFailedCommitCountWithTheNextCommit() throws Exception {
        MirrorSink sink = new MirrorSink(new LandedWrites(), false, TopicNaming.prefix("dc1."), "source-cluster",
                "target-cluster");
        sink.open(SOURCE, Uuid.randomUuid(), 0, Optional.empty());
        write(sink, 0, 4);
        sink.notCommitted(SOURCE, sink.checkpoint(SOURCE, false), false); // acknowledged: they are in the target
        write(sink, 4, 1);
        sink.committed(SOURCE, sink.checkpoint(SOURCE, false));
        assertCounts(sink, 5, 5);
    }

    @Test
    void copiesGoWithoutWaitingOnlyOnceOneWasSentRecentlyAndNeverAfterTheMirrorFailed() throws Exception {
        LandedWrites writes = new LandedWrites();
        MirrorSink sink = new MirrorSink(writes, true, TopicNaming.prefix("dc1."), "source-cluster", "target-cluster",
                Duration.ofMillis(200));
        assertFalse(sink.writesWithoutWaiting(SOURCE, 1, 100), "not open here");
        sink.open(SOURCE, Uuid.randomUuid(), 0, Optional.empty());
        write(sink, 0, 1);
        assertFalse(sink.writesWithoutWaiting(SOURCE, 1, 100), "sent, but when is not known before a first ask");
        write(sink, 1, 1);
        assertTrue(sink.writesWithoutWaiting(SOURCE, 1, 100), "sent since the last ask");
        writes.room = false;
        assertFalse(sink.writesWithoutWaiting(SOURCE, 1, 100), "the writes say no");
        writes.room = true;
        assertTrue(sink.writesWithoutWaiting(SOURCE, 1, 100), "the last send, after the ask before it, is recent");
        long quiet = System.nanoTime();
        while (System.nanoTime() - quiet < Duration.ofMillis(250).toNanos()) {
            Thread.sleep(50); // nothing sent for longer than the 200 ms the sink was given
        }
        assertFalse(sink.writesWithoutWaiting(SOURCE, 1, 100), "nothing sent within 200 ms");
        write(sink, 2, 1);
        sink.writesWithoutWaiting(SOURCE, 1, 100);
        write(sink, 3, 1);
        assertTrue(sink.writesWithoutWaiting(SOURCE, 1, 100), "sending again");
        sink.abandon();
        assertFalse(sink.writesWithoutWaiting(SOURCE, 1, 100), "the mirror failed");
    }

    private static void write(MirrorSink sink, long from, int count) {
        for (long offset = from; offset < from + count; offset++) {
            sink.write(new ConsumerRecord<>(SOURCE.topic(), SOURCE.partition(), offset, 1_000L + offset,
                    TimestampType.CREATE_TIME, 1, 5, "k".getBytes(StandardCharsets.UTF_8),
                    "value".getBytes(StandardCharsets.UTF_8), new RecordHeaders(), Optional.empty()));
        }
    }

    private static void assertCounts(MirrorSink sink, long copied, long sent) {
        Mirror.Counts counts = sink.counts();
        assertEquals(copied, counts.copied(), "copied and committed: " + counts);
        assertEquals(sent, counts.sent(), "sent: " + counts);
        assertEquals(copied * 6, counts.copiedBytes(), "a key of 1 byte and a value of 5 per copy: " + counts);
    }
}
