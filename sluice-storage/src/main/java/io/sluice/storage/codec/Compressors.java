package io.sluice.storage.codec;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where files are compressed. {@link #INLINE}: on the thread that writes the rows, as Kafka Connect's storage sinks
 * do, so a partition never uses more than one core. {@link #offloaded}: on a pool of threads the sink's files share,
 * so a partition's lane scans, lays out and encodes the next rows while the pool compresses the previous ones
 * ({@link OffloadedCompression}). Compression is the largest part of a compressed archive's CPU, and this is how one
 * partition gets more than one core: what a topic with fewer partitions than the machine has cores needs.
 *
 * <p>Threading: safe for concurrent use; each stream it opens is used by one thread at a time.
 */
public final class Compressors implements AutoCloseable {

    /** Compression on the writing thread. */
    public static final Compressors INLINE = new Compressors(null);

    private final ExecutorService pool;

    private Compressors(ExecutorService pool) {
        this.pool = pool;
    }

    /** Compressing on {@code pool}, which the returned instance owns (it stops it at {@link #close}). */
    static Compressors on(ExecutorService pool) {
        return new Compressors(pool);
    }

    /** A pool of {@code threads} compressing threads, one per core being the useful most. */
    public static Compressors offloaded(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("compressing threads must be at least 1, not " + threads);
        }
        AtomicInteger n = new AtomicInteger();
        return new Compressors(Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "sluice-compress-" + n.incrementAndGet());
            t.setDaemon(true); // a chunk stuck in a dead store's write must not keep the JVM alive
            return t;
        }));
    }

    /** Compresses what is written to the returned stream with {@code codec} into {@code file}. */
    public CompressionStream open(Codec codec, OutputStream file) throws IOException {
        DetachableStream target = new DetachableStream(file);
        if (pool == null || codec == Codec.NONE) {
            return new InlineCompression(codec.compress(target), codec.heapBuffer(), target);
        }
        return new OffloadedCompression(() -> codec.compress(target), codec.heapBuffer(), pool, target);
    }

    /**
     * Stops the pool; call it once no file it compresses is open any more. Chunks queued and never started end unwritten,
     * without a storage call: a file whose writer waits for one (a lane the engine's drain gave up on) fails instead of
     * waiting for ever (a review). A chunk whose write is under way in a store that never answers is not helped.
     */
    @Override
    public void close() {
        if (pool != null) {
            for (Runnable never : pool.shutdownNow()) {
                if (never instanceof OffloadedCompression.Chunk chunk) {
                    chunk.abandon();
                }
            }
        }
    }

    private static final class InlineCompression extends CompressionStream {
        private final OutputStream compressed;
        private final long heap;
        private final DetachableStream target;

        InlineCompression(OutputStream compressed, long heap, DetachableStream target) {
            this.compressed = compressed;
            this.heap = heap;
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            compressed.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            compressed.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            compressed.flush();
        }

        @Override
        public void close() throws IOException {
            compressed.close();
        }

        @Override
        public long heapBytes() {
            return heap;
        }

        @Override
        public void discard() {
            target.release(compressed); // nothing runs in the background
        }
    }
}
