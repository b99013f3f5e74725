package io.sluice.storage.format;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * Parquet's view of a backend's stream: the position is the count of bytes that went through, so Parquet needs no
 * Hadoop file system and writes to local files, S3 uploads and HDFS alike. Closing it (Parquet does, after the footer)
 * only flushes: the backend's stream still has to be finished and committed.
 *
 * <p>Threading: one thread at a time.
 */
final class StreamOutputFile implements OutputFile {

    private final CountingOutputStream out;

    StreamOutputFile(CountingOutputStream out) {
        this.out = out;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new PositionOutputStream() {
            @Override
            public long getPos() {
                return out.count();
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }
}
