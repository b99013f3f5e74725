package io.sluice.bench.systems;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.backend.PendingFile;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.json.JsonScan;
import io.sluice.storage.json.MalformedJsonException;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition's open files in the Kafka Connect task, one per directory of the layout. They roll together (on size,
 * record count, the open-file bound, or age when Connect asks to commit), and a roll publishes them at once: there is
 * no manifest and no later commit point, so the offset after the last rolled record is durable as soon as it rolls.
 *
 * <p>Threading: the task's thread.
 */
final class TaskFiles {

    private record Open(PendingFile pending, RecordWriter writer) {
    }

    private final TopicPartition partition;
    private final StorageBackend backend;
    private final Layout layout;
    private final FileFormat format;
    private final RollingPolicy rolling;
    private final boolean scanJson;
    private final Map<String, Open> open = new HashMap<>();
    private long openedNanos;
    private long next = -1;
    private long rolledTo = -1;

    TaskFiles(TopicPartition partition, StorageBackend backend, Layout layout, FileFormat format,
            RollingPolicy rolling) {
        this.partition = partition;
        this.backend = backend;
        this.layout = layout;
        this.format = format;
        this.rolling = rolling;
        this.scanJson = format.needsJson() || !layout.jsonPaths().isEmpty();
    }

    void write(ConsumerRecord<byte[], byte[]> record) throws IOException, RecordRejectedException {
        JsonScan scan = null;
        if (scanJson && record.value() != null) {
            try {
                scan = JsonScan.scan(record.value(), layout.jsonPaths());
            } catch (MalformedJsonException e) {
                throw new RecordRejectedException("the value is not JSON: " + e.getMessage(), e);
            }
        }
        String directory = layout.directory(record, scan);
        Open file = open.get(directory);
        if (file == null) {
            if (open.size() >= rolling.maxOpenFiles()) {
                roll();
            }
            PendingFile pending = backend.create(directory + partition.topic() + "+" + partition.partition() + "+"
                    + record.offset() + format.extension(), "_connect/staging/" + partition.partition() + "/");
            file = new Open(pending, format.open(pending.stream()));
            if (open.isEmpty()) {
                openedNanos = System.nanoTime();
            }
            open.put(directory, file);
        }
        file.writer().write(record, scan);
        next = record.offset() + 1;
        if (rolling.full(file.writer().bytesWritten(), file.writer().records())) {
            roll();
        }
    }

    void rollIfOld(long nowNanos) throws IOException {
        if (!open.isEmpty() && rolling.old(openedNanos, nowNanos)) {
            roll();
        }
    }

    /** The offset below which every record is in a visible file, once anything rolled. */
    OptionalLong durableOffset() {
        return rolledTo < 0 ? OptionalLong.empty() : OptionalLong.of(rolledTo);
    }

    /** Gives up the open files: their records are not committed, and Connect delivers them again. */
    void abort() {
        open.values().forEach(f -> f.pending().abort());
        open.clear();
    }

    private void roll() throws IOException {
        for (Open f : open.values()) {
            f.writer().close();
            backend.publish(f.pending().finish());
        }
        open.clear();
        rolledTo = next;
    }
}
