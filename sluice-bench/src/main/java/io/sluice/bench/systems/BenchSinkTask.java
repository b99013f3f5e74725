package io.sluice.bench.systems;

import io.sluice.bench.ArchiveWork;
import io.sluice.bench.Scenario;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Kafka Connect's side of the archive comparison: the archive work of Sluice's sink done with the same code (layout,
 * file format and codec, the local backend's fsync and rename) in Connect's model. Records arrive with the
 * {@code ByteArrayConverter}, so Connect converts nothing; each task owns its partitions' open files
 * ({@link TaskFiles}) and writes on Connect's task thread. Every {@code offset.flush.interval.ms} Connect calls
 * {@link #preCommit}: files due to roll are finished and made visible, and the offsets they cover are returned for
 * Connect to commit. At least once, as Connect sinks are without a write-ahead log.
 *
 * <p>Threading: Connect calls one task from its own thread, one call at a time.
 */
public final class BenchSinkTask extends SinkTask {

    static final String VERSION = "bench";

    private final Map<TopicPartition, TaskFiles> partitions = new HashMap<>();
    private ArchiveWork work;
    private StorageBackend backend;
    private Measurement measurement;

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        // the archive work is the same in the smoke form and the full one
        work = Scenario.named(props.get(BenchSinkConnector.SCENARIO), false).archive();
        backend = new LocalBackend(Path.of(props.get(BenchSinkConnector.OUTPUT)));
        measurement = ConnectSinkSystem.measurement();
    }

    @Override
    public void open(Collection<TopicPartition> assigned) {
        for (TopicPartition tp : assigned) {
            partitions.put(tp, new TaskFiles(tp, backend, work.layout(), work.format(), work.rolling()));
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (SinkRecord r : records) {
            byte[] value = (byte[]) r.value();
            try {
                partitions.get(new TopicPartition(r.topic(), r.kafkaPartition())).write(consumerRecord(r, value));
            } catch (RecordRejectedException e) {
                throw new DataException(r.topic() + "-" + r.kafkaPartition() + "@" + r.kafkaOffset() + ": "
                        + e.getMessage(), e);
            } catch (IOException e) {
                throw new ConnectException("writing " + r.topic() + "-" + r.kafkaPartition() + "@" + r.kafkaOffset()
                        + " failed: " + e.getMessage(), e);
            }
            measurement.handled(value == null ? 0 : value.length);
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> durable = new HashMap<>();
        long now = System.nanoTime();
        partitions.forEach((tp, files) -> {
            try {
                files.rollIfOld(now);
            } catch (IOException e) {
                throw new ConnectException("finishing the files of " + tp + " failed: " + e.getMessage(), e);
            }
            files.durableOffset().ifPresent(offset -> durable.put(tp, new OffsetAndMetadata(offset)));
        });
        return durable;
    }

    @Override
    public void close(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            Optional.ofNullable(partitions.remove(tp)).ifPresent(TaskFiles::abort);
        }
    }

    @Override
    public void stop() {
        partitions.values().forEach(TaskFiles::abort);
        partitions.clear();
    }

    private static ConsumerRecord<byte[], byte[]> consumerRecord(SinkRecord r, byte[] value) {
        byte[] key = (byte[]) r.key();
        return new ConsumerRecord<>(r.topic(), r.kafkaPartition(), r.kafkaOffset(), r.timestamp(),
                TimestampType.CREATE_TIME, key == null ? -1 : key.length, value == null ? -1 : value.length, key, value,
                new RecordHeaders(), Optional.empty());
    }
}
