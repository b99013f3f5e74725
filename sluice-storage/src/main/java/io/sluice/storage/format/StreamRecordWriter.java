package io.sluice.storage.format;

import io.sluice.storage.codec.Codec;
import io.sluice.storage.codec.CompressionStream;
import io.sluice.storage.codec.Compressors;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The part every stream-compressed format shares (JSON Lines, raw): bytes go through a {@link Codec}, on this thread
 * or off it ({@link Compressors}), into the backend's stream, counted after compression; closing finishes the codec's
 * last frame but leaves the backend's stream open.
 *
 * <p>Threading: one thread at a time (the compressing pool's tasks, if any, are the codec stream's business).
 */
abstract class StreamRecordWriter implements RecordWriter {

    private final CountingOutputStream counted;
    /** The codec's stream: what subclasses write rows to. */
    protected final CompressionStream out;
    private long records;

    protected StreamRecordWriter(OutputStream file, Codec codec, Compressors compressors) throws IOException {
        this.counted = new CountingOutputStream(file);
        this.out = compressors.open(codec, counted);
    }

    /** Called by subclasses once a record is completely written. */
    protected final void counted() {
        records++;
    }

    @Override
    public final long bytesWritten() {
        return counted.count();
    }

    /** The codec's buffers live as long as the file is open, so with many open files they are what counts. */
    @Override
    public final long bufferedBytes() {
        return out.heapBytes();
    }

    @Override
    public final long records() {
        return records;
    }

    @Override
    public void close() throws IOException {
        out.close(); // finishes the codec's frame; the counting stream below stays open for the backend
    }

    @Override
    public final void discard() {
        out.discard();
    }
}
