package io.sluice.storage.format;

import io.sluice.storage.codec.Codec;
import java.io.IOException;
import java.io.OutputStream;

/**
 * The part every stream-compressed format shares (JSON Lines, raw): bytes go through a {@link Codec} into the
 * backend's stream, counted after compression; closing finishes the codec's last frame but leaves the backend's
 * stream open.
 *
 * <p>Threading: one thread at a time.
 */
abstract class StreamRecordWriter implements RecordWriter {

    private final CountingOutputStream counted;
    /** The codec's stream: what subclasses write rows to. */
    protected final OutputStream out;
    private long records;

    protected StreamRecordWriter(OutputStream file, Codec codec) throws IOException {
        this.counted = new CountingOutputStream(file);
        this.out = codec.compress(counted);
    }

    /** Called by subclasses once a record is completely written. */
    protected final void counted() {
        records++;
    }

    @Override
    public final long bytesWritten() {
        return counted.count();
    }

    @Override
    public final long records() {
        return records;
    }

    @Override
    public void close() throws IOException {
        out.close(); // finishes the codec's frame; the counting stream below stays open for the backend
    }
}
