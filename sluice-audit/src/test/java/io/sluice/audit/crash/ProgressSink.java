package io.sluice.audit.crash;

import io.sluice.core.sink.ForwardingSink;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A sink that tells a test how far an archive got (a child JVM prints it, an archive in the test JVM hands it over),
 * so the test waits for an event rather than polling storage: {@code SLUICE-CAUGHT-UP <partition>} once the
 * partition's records below its end offset are written or rejected (or were committed before it was opened), {@code
 * SLUICE-COMMITTED <partition> <offset>} once a commit succeeded and its files are published, {@code
 * SLUICE-PUBLISHED <partition>} once that commit covers all of them, and {@code SLUICE-RELEASED <partition>
 * lost|revoked} once the sink has closed the partition.
 *
 * <p>Threading: as the sink it wraps; {@code report} is called from the partitions' lanes.
 */
final class ProgressSink extends ForwardingSink {

    static final String CAUGHT_UP = "SLUICE-CAUGHT-UP ";
    static final String COMMITTED = "SLUICE-COMMITTED ";
    static final String PUBLISHED = "SLUICE-PUBLISHED ";
    static final String RELEASED = "SLUICE-RELEASED ";

    private final Map<Integer, Long> endOffsets;
    private final Consumer<String> report;

    ProgressSink(Sink sink, Map<Integer, Long> endOffsets, Consumer<String> report) {
        super(sink);
        this.endOffsets = Map.copyOf(endOffsets);
        this.report = report;
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception {
        super.open(partition, topicId, committedOffset, committedData);
        if (committedOffset >= end(partition)) {
            say(CAUGHT_UP, partition);
        }
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        try {
            super.write(record);
        } catch (RecordRejectedException e) {
            // the engine dead-letters it: the partition's last record may be one, and then it is done too
            caughtUpAt(record);
            throw e;
        }
        caughtUpAt(record);
    }

    private void caughtUpAt(ConsumerRecord<byte[], byte[]> record) {
        if (record.offset() + 1 == endOffsets.getOrDefault(record.partition(), Long.MAX_VALUE)) {
            say(CAUGHT_UP, new TopicPartition(record.topic(), record.partition()));
        }
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        super.committed(partition, checkpoint);
        report.accept(COMMITTED + partition.partition() + " " + checkpoint.offset());
        if (checkpoint.offset() >= end(partition)) {
            say(PUBLISHED, partition);
        }
    }

    @Override
    public void close(TopicPartition partition, boolean lost) throws Exception {
        super.close(partition, lost);
        report.accept(RELEASED + partition.partition() + (lost ? " lost" : " revoked"));
    }

    private long end(TopicPartition partition) {
        return endOffsets.getOrDefault(partition.partition(), Long.MAX_VALUE);
    }

    private void say(String what, TopicPartition partition) {
        report.accept(what + partition.partition());
    }
}
