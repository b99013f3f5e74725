package io.sluice.mirror.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.mirror.Mirror;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * The sink's counts say what its commits made count: a stopped instance's line said "1,311,236 records copied" of a
 * topic of 1,220,000 records, counting the copies of transactions that aborted (found by a chaos run).
 */
class MirrorSinkCountsTest {

    private static final TopicPartition SOURCE = new TopicPartition("orders", 0);

    /** Where copies land, as the pure counting needs it: at once, at the next target offset. */
    private static final class LandedWrites implements TargetWrites {
        long next;

        @Override
        public Future<RecordMetadata> send(TopicPartition source, ProducerRecord<byte[], byte[]> copy) {
            return CompletableFuture.completedFuture(new RecordMetadata(new TopicPartition(copy.topic(),
                    copy.partition()), next++, 0, 0, 0, 0));
        }

        @Override
        public void flush(TopicPartition source) {
        }

        @Override
        public Collection<Map<MetricName, ? extends Metric>> producerMetrics() {
            return List.of(); // no producer
        }
    }

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
