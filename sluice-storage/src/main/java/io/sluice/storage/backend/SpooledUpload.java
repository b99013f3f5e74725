package io.sluice.storage.backend;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * One file on its way to S3. Bytes pass through a small heap buffer into a local spool file; whenever the spool holds
 * a whole part it is uploaded, streamed from disk, and emptied, and {@link #finish} uploads the rest as the last
 * part. So every part but the last is exactly the part size, and the heap holds {@link #BUFFER} bytes per open file
 * whatever the part size. The multipart upload itself starts with the first part: a file given up before then costs
 * no request, a file smaller than a part is staged whole at {@link #finish} instead, and a file that never outgrows
 * the buffer never touches the disk.
 *
 * <p>Threading: one thread at a time.
 */
final class SpooledUpload implements PendingFile {

    /** Heap per open file: large enough to make spool writes cheap, small enough for thousands of open files. */
    static final int BUFFER = 32 * 1024;

    private final S3Backend backend;
    private final String path;
    private final String stagingPrefix;
    private final Path spoolFile;
    private final int partSize;
    private final byte[] buffer = new byte[BUFFER];
    private int buffered;
    /** Bytes of the current part already in the spool file. */
    private long spooled;
    /** Opened at the first spill. */
    private FileChannel spool;
    /** Started with the first part. */
    private S3Backend.Started upload;
    /** Where a file smaller than a part was staged whole. */
    private PendingRef whole;
    private int nextPart = 1;
    private boolean finished;

    private final OutputStream stream = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            while (len > 0) {
                int n = (int) Math.min(len, Math.min(buffer.length - buffered, partSize - spooled - buffered));
                System.arraycopy(b, off, buffer, buffered, n);
                buffered += n;
                off += n;
                len -= n;
                if (spooled + buffered == partSize) {
                    uploadPart();
                } else if (buffered == buffer.length) {
                    spill();
                }
            }
        }
    };

    SpooledUpload(S3Backend backend, String path, String stagingPrefix, Path spoolFile, int partSize) {
        this.backend = backend;
        this.path = path;
        this.stagingPrefix = stagingPrefix;
        this.spoolFile = spoolFile;
        this.partSize = partSize;
    }

    @Override
    public OutputStream stream() {
        return stream;
    }

    @Override
    public PendingRef finish() throws IOException {
        // a second finish staged the same bytes again under another name, or, for a file that had spilled, an empty
        // object (its spool was removed by the first): a roll that failed after sealing and was run again published
        // empty files under manifest entries that claimed records (a review)
        if (finished) {
            throw new IllegalStateException("the file " + path + " was finished already");
        }
        finished = true;
        if (upload == null) {
            whole = backend.stageWhole(path, stagingPrefix, body()); // smaller than a part: no multipart upload
        } else if (buffered > 0 || spooled > 0) {
            uploadPart(); // the last part, smaller than the others
        }
        removeSpool();
        return whole != null ? whole : upload.ref();
    }

    @Override
    public void abort() {
        try {
            removeSpool();
            if (upload != null || whole != null) {
                backend.discard(whole != null ? whole : upload.ref());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Only the spool file goes; an upload already started stays for recovery to remove. */
    @Override
    public void abandon() {
        try {
            removeSpool();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long bufferedBytes() {
        return buffer.length;
    }

    private void spill() throws IOException {
        if (spool == null) {
            spool = FileChannel.open(spoolFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        }
        ByteBuffer bytes = ByteBuffer.wrap(buffer, 0, buffered);
        while (bytes.hasRemaining()) {
            spool.write(bytes);
        }
        spooled += buffered;
        buffered = 0;
    }

    /** What has accumulated since the last part, as a request body that can be re-read for every retry. */
    private RequestBody body() throws IOException {
        if (spooled == 0) {
            int length = buffered; // all of it is still on the heap: send it from there
            return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(buffer, 0, length), length,
                    "application/octet-stream");
        }
        spill();
        return RequestBody.fromFile(spoolFile); // streamed from disk
    }

    private void uploadPart() throws IOException {
        RequestBody body = body();
        if (upload == null) {
            upload = backend.start(path, stagingPrefix);
        }
        backend.uploadPart(upload, nextPart++, body);
        if (spool != null) {
            spool.truncate(0);
        }
        spooled = 0;
        buffered = 0;
    }

    private void removeSpool() throws IOException {
        if (spool != null) {
            spool.close();
            spool = null;
        }
        Files.deleteIfExists(spoolFile);
    }
}
