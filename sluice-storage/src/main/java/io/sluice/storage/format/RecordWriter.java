package io.sluice.storage.format;

import io.sluice.storage.json.JsonScan;
import java.io.Closeable;
import java.io.IOException;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Writes records into one output file. {@link #close()} finishes the file (footer, last compressed frame) but does
 * not close the stream below, which belongs to the storage backend.
 *
 * <p>Threading: one thread at a time (the partition's lane).
 */
public interface RecordWriter extends Closeable {

    /** @param scan the value's JSON scan, or null when the layout needed none and the format does not either */
    void write(ConsumerRecord<byte[], byte[]> record, JsonScan scan) throws IOException;

    /** Bytes that reached the file so far (after compression), for size-based rolling. */
    long bytesWritten();

    long records();
}
