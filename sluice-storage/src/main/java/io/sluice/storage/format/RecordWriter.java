package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.ValueFields;
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

    /**
     * @param value the value decoded for the layout and, when {@link FileFormat#decodesValues()}, whole for this
     *     writer; null for a tombstone, or when neither the layout nor the format needed it decoded
     * @throws RecordRejectedException when the format cannot take the record (a value that does not match the schema,
     *     a tombstone the format cannot hold); thrown before anything of the record reaches the file, so the file
     *     stays valid and the engine applies its failure outcome to the record alone
     */
    void write(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws IOException, RecordRejectedException;

    /**
     * The file's size so far, for size-based rolling: bytes that reached the stream (after compression) plus, for
     * formats that hold data back in memory (a Parquet row group), an estimate of what that data will add.
     */
    long bytesWritten();

    long records();

    /** Bytes this writer holds in memory for rows not yet written out (a Parquet row group), for the memory budget. */
    default long bufferedBytes() {
        return 0;
    }

    /**
     * Gives the file up without finishing it. Once this returns, nothing more reaches the file's stream (work this
     * writer started in the background has ended), so the backend can abort or abandon it.
     */
    default void discard() {
    }
}
