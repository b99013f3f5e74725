package io.sluice.bench.systems;

import io.sluice.bench.ArchiveWork;
import io.sluice.bench.Scenario;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.sink.ArchiveSink;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Kafka Connect's side of the archive comparison: the same archive work as Sluice's, done by the same code (the
 * archive sink's per-partition writer: layout, file format and codec, rolling, the local backend's fsync and rename)
 * in Connect's model. Records arrive through the {@code ByteArrayConverter}, so Connect converts nothing, or through
 * the schemaless {@code JsonConverter}, and then the task writes the value back as JSON bytes as Connect's storage
 * sinks' JSON formats do; either way they are written on Connect's task thread in {@link #put}. Every {@code offset.flush.interval.ms} Connect calls
 * {@link #preCommit}: files due to roll are finished and made visible, and the offset they cover is returned for
 * Connect to commit. That is the archive sink's at-least-once mode, as Connect sinks without a write-ahead log are.
 *
 * <p>Threading: Connect calls a task from its own thread, one call at a time.
 */
public final class BenchSinkTask extends SinkTask {

    static final String VERSION = "bench";
    /** At least once keeps no manifests: the topic ID only names the staging folder. */
    private static final Uuid NO_TOPIC_ID = Uuid.ZERO_UUID;

    private final Set<TopicPartition> started = new HashSet<>();
    private ArchiveSink archive;
    private Measurement measurement;
    /** Writes values that the JsonConverter parsed back as JSON, as Connect's storage sinks' JSON formats do. */
    private final JsonConverter json = new JsonConverter();

    @Override
    public String version() {
        return VERSION;
    }

    @Override
    public void start(Map<String, String> props) {
        ArchiveWork work = Scenario.named(props.get(BenchSinkConnector.SCENARIO),
                Boolean.parseBoolean(props.get(BenchSinkConnector.SMOKE))).archive();
        archive = new ArchiveSink(new LocalBackend(Path.of(props.get(BenchSinkConnector.OUTPUT))), work.layout(),
                work.format(), work.rolling(), false, ArchiveSink.DEFAULT_MAX_BUFFERED_BYTES,
                0); // compressing on the task's thread, as Connect's storage sinks do
        measurement = ConnectSinkSystem.measurement();
        json.configure(Map.of("schemas.enable", "false"), false);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (SinkRecord r : records) {
            byte[] value = r.value() instanceof byte[] bytes ? bytes
                    : json.fromConnectData(r.topic(), r.valueSchema(), r.value());
            TopicPartition tp = new TopicPartition(r.topic(), r.kafkaPartition());
            try {
                if (started.add(tp)) {
                    // a task learns where Connect resumed a partition from its first record: the committed offset
                    archive.open(tp, NO_TOPIC_ID, r.kafkaOffset(), Optional.empty());
                }
                archive.write(consumerRecord(r, value));
            } catch (RecordRejectedException e) {
                throw new DataException(tp + "@" + r.kafkaOffset() + ": " + e.getMessage(), e);
            } catch (Exception e) {
                throw new ConnectException("writing " + tp + "@" + r.kafkaOffset() + " failed: " + e.getMessage(), e);
            }
            measurement.handled(value == null ? 0 : value.length);
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Map<TopicPartition, OffsetAndMetadata> durable = new HashMap<>();
        for (TopicPartition tp : started) {
            try {
                durable.put(tp, new OffsetAndMetadata(archive.checkpoint(tp, false).offset()));
            } catch (Exception e) {
                throw new ConnectException("finishing the files of " + tp + " failed: " + e.getMessage(), e);
            }
        }
        return durable;
    }

    @Override
    public void close(Collection<TopicPartition> revoked) {
        for (TopicPartition tp : revoked) {
            if (started.remove(tp)) {
                archive.close(tp, false); // after Connect's last commit for it: what is still open is not committed
            }
        }
    }

    @Override
    public void stop() {
        close(Set.copyOf(started));
    }

    private static ConsumerRecord<byte[], byte[]> consumerRecord(SinkRecord r, byte[] value) {
        byte[] key = (byte[]) r.key();
        return new ConsumerRecord<>(r.topic(), r.kafkaPartition(), r.kafkaOffset(), r.timestamp(),
                TimestampType.CREATE_TIME, key == null ? -1 : key.length, value == null ? -1 : value.length, key, value,
                new RecordHeaders(), Optional.empty());
    }
}
