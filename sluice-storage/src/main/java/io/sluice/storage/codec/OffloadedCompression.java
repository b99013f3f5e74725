package io.sluice.storage.codec;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Rows are copied into a chunk; a full chunk goes to the compressing pool while the writer fills the other one. At
 * most one chunk per file is being compressed, so chunks reach the codec in order, and a writer that gets ahead of
 * the pool waits for it (backpressure, not a queue). Besides taking compression off the writer's thread, the chunk
 * turns a row's several small writes (the coordinates, a comma, the value, a newline) into one call of the codec per
 * 64 KiB, which matters for codecs behind JNI.
 *
 * <p>A file with little in it holds little: the first chunk starts at 4 KiB and doubles up to 64 KiB, and the second
 * exists only once the first has been handed off. So a thousand small open files do not hold 128 MiB of chunks. The
 * codec itself (zstd: about 1 MiB of native memory and 128 KiB of heap) is opened only when the first chunk is handed
 * off, or when the file is sealed: a file that stays under a chunk, as a late hour's file does, holds its rows and
 * nothing else until then (issue 17).
 *
 * <p>A failure of the file's stream (a full disk, a store that is down) is reported by the writer's next write,
 * {@link #flush()} or {@link #close()}, and by every one after: the file is broken.
 *
 * <p>Bytes counted below this stream (for size-based rolling) lag what was written by up to two chunks before
 * compression, besides what the codec itself holds back.
 *
 * <p>Threading: the writer's methods one thread at a time. Compressing tasks run on the pool, one at a time per file,
 * each started after the writer saw the previous one end, so they and {@link #close()} use the codec's stream in turn.
 */
final class OffloadedCompression extends CompressionStream {

    static final int CHUNK = 64 * 1024;
    static final int FIRST_CHUNK = 4 * 1024;
    private static final byte[] NONE = new byte[0];

    /** Opens the codec's stream, once. */
    interface CodecOpener {
        OutputStream open() throws IOException;
    }

    private final CodecOpener opener;
    /** Null until the first hand-off (or the seal) opens it; then used by the compressing tasks and close. */
    private OutputStream compressed;
    private final long codecHeap;
    private final Executor pool;
    private final DetachableStream target;
    private byte[] filling = NONE;
    private int fill;
    /** The chunk being compressed, or one whose compression ended: free once {@link #inFlight} is done. */
    private byte[] spare;
    private CompletableFuture<Void> inFlight = CompletableFuture.completedFuture(null);
    private boolean closed;

    /** For a codec stream that needs nothing freed when the file is given up. */
    OffloadedCompression(OutputStream compressed, long codecHeap, Executor pool) {
        this(() -> compressed, codecHeap, pool, null);
    }

    /** @param target what the codec's stream writes into, detached when the file is given up; or null */
    OffloadedCompression(CodecOpener opener, long codecHeap, Executor pool, DetachableStream target) {
        this.opener = opener;
        this.codecHeap = codecHeap;
        this.pool = pool;
        this.target = target;
    }

    @Override
    public void write(int b) throws IOException {
        if (fill == filling.length) {
            makeRoom();
        }
        filling[fill++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (fill == filling.length) {
                makeRoom();
            }
            int n = Math.min(len, filling.length - fill);
            System.arraycopy(b, off, filling, fill, n);
            fill += n;
            off += n;
            len -= n;
        }
    }

    /** Hands the rows written so far to the pool, waits for them, and flushes the codec. */
    @Override
    public void flush() throws IOException {
        if (fill > 0) {
            handOff();
        }
        awaitInFlight();
        if (compressed != null) {
            compressed.flush();
        }
    }

    /** Compresses the last rows, then finishes the codec's frame on this thread. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        if (fill > 0) {
            handOff();
        }
        awaitInFlight();
        filling = NONE;
        spare = null;
        codec().close(); // opened here if no chunk was handed off: it still writes its frame's header and end
    }

    @Override
    public long heapBytes() {
        return (compressed == null ? 0 : codecHeap) + filling.length + (spare == null ? 0 : spare.length);
    }

    @Override
    public void discard() {
        closed = true;
        try {
            inFlight.join();
        } catch (CompletionException | java.util.concurrent.CancellationException ignored) {
            // the file is given up: what broke it was reported, or no longer matters
        }
        filling = NONE;
        spare = null;
        fill = 0;
        if (target != null) {
            if (compressed == null) {
                target.detach(); // no codec was opened: nothing to free
            } else {
                target.release(compressed); // no task uses the codec any more
            }
        }
    }

    private void makeRoom() throws IOException {
        if (closed) {
            throw new IOException("this file's compressed stream is closed");
        }
        if (filling.length < CHUNK) {
            filling = Arrays.copyOf(filling, Math.max(FIRST_CHUNK, Math.min(CHUNK, filling.length * 2)));
        } else {
            handOff();
        }
    }

    private void handOff() throws IOException {
        awaitInFlight();
        OutputStream codec = codec();
        byte[] chunk = filling;
        int length = fill;
        filling = spare != null && spare.length == CHUNK ? spare : new byte[chunk.length];
        spare = chunk;
        fill = 0;
        Chunk task = new Chunk(codec, chunk, length);
        try {
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            task.abandon(); // the pool closed: the file fails at its next wait, which never hangs on this chunk
        }
        inFlight = task.done;
    }

    /**
     * One chunk's compression, which a closing pool that never ran it can end without touching the file
     * ({@link Compressors#close}): its writer, waiting at the seal, then fails instead of waiting for ever, and no
     * storage call is made on the closing thread.
     */
    static final class Chunk implements Runnable {
        private final OutputStream codec;
        private final byte[] bytes;
        private final int length;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Chunk(OutputStream codec, byte[] bytes, int length) {
            this.codec = codec;
            this.bytes = bytes;
            this.length = length;
        }

        @Override
        public void run() {
            try {
                compress(codec, bytes, length);
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }

        /** Ends the chunk unwritten: the pool closed before it ran. */
        void abandon() {
            done.completeExceptionally(new UncheckedIOException(new IOException("not compressed: the compressing "
                    + "threads were stopped (the archive closed)")));
        }
    }

    /** On the writer's thread, before any task: the task that uses it starts after (handing a task to an executor happens-before it runs). */
    private OutputStream codec() throws IOException {
        if (compressed == null) {
            compressed = opener.open();
        }
        return compressed;
    }

    private static void compress(OutputStream codec, byte[] chunk, int length) {
        try {
            codec.write(chunk, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitInFlight() throws IOException {
        try {
            inFlight.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UncheckedIOException io) {
                throw new IOException(io.getCause().getMessage(), io.getCause());
            } else if (cause instanceof RuntimeException re) {
                throw re;
            } else if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
