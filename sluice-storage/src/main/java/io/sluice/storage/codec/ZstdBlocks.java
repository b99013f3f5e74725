package io.sluice.storage.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whole blocks compressed with zstd in one call (a Parquet page, a chunk of held records), by contexts that are made
 * once and reused. zstd's one-call API knows the block's size, so a small block gets tables sized to it; a stream
 * opened per block (what parquet-java does for every page) allocates about a megabyte of native workspace and clears
 * tables sized for an unknown input each time, which made a small Parquet file's pages cost more than their rows
 * (issue 17). Each call returns a complete zstd frame that any zstd reader decompresses, streaming or not.
 *
 * <p>Instances are lent from a shared pool ({@link #borrow}, {@link #close}), not kept per thread: zstd-jni frees a
 * context's native memory only when it is closed, and the threads that compress (lanes' workers, the storage pool)
 * come and go. The pool keeps at most {@value #MAX_IDLE} idle instances and closes the rest, so the contexts number at
 * most the blocks being compressed at once plus that; an instance whose buffers grew past {@value #MAX_KEPT_BUFFER}
 * bytes (a huge page) gives them up when it is returned.
 *
 * <p>Threading: one thread at a time uses a borrowed instance; the pool is thread-safe.
 */
public final class ZstdBlocks implements AutoCloseable {

    static final int MAX_IDLE = 16;
    static final int MAX_KEPT_BUFFER = 1 << 20;
    private static final byte[] NONE = new byte[0];
    private static final ConcurrentLinkedQueue<ZstdBlocks> IDLE = new ConcurrentLinkedQueue<>();
    private static final AtomicInteger IDLE_COUNT = new AtomicInteger();

    private ZstdCompressCtx compressor;
    private ZstdDecompressCtx decompressor;
    private byte[] frame = NONE;
    private Gathered gathered = new Gathered();
    private boolean lent;

    private ZstdBlocks() {
    }

    /** An instance for this thread's use until {@link #close}; an idle one when there is one. */
    public static ZstdBlocks borrow() {
        ZstdBlocks blocks = IDLE.poll();
        if (blocks == null) {
            blocks = new ZstdBlocks();
        } else {
            IDLE_COUNT.decrementAndGet();
        }
        blocks.lent = true;
        return blocks;
    }

    /**
     * Compresses {@code src[off, off + len)} into a frame of its own.
     *
     * @throws com.github.luben.zstd.ZstdException if zstd fails, which it does not for a valid range
     */
    public byte[] compress(byte[] src, int off, int len) {
        int bound = (int) Zstd.compressBound(len);
        if (frame.length < bound) {
            frame = new byte[bound];
        }
        if (compressor == null) {
            compressor = new ZstdCompressCtx().setLevel(Codec.ZSTD_LEVEL);
        }
        int n = compressor.compressByteArray(frame, 0, bound, src, off, len);
        return Arrays.copyOf(frame, n);
    }

    /** An empty stream to collect a block that arrives in pieces; {@link #compressGathered} compresses it. */
    public OutputStream gather() {
        gathered.reset();
        return gathered;
    }

    /** Compresses what was written to {@link #gather} since it was called, into a frame of its own. */
    public byte[] compressGathered() {
        return compress(gathered.buffer(), 0, gathered.size());
    }

    /**
     * Decompresses a frame whose content is {@code rawLength} bytes.
     *
     * @throws IllegalStateException when the frame is damaged or holds another length
     */
    public byte[] decompress(byte[] src, int rawLength) {
        if (decompressor == null) {
            decompressor = new ZstdDecompressCtx();
        }
        byte[] raw = new byte[rawLength];
        int n;
        try {
            n = decompressor.decompressByteArray(raw, 0, rawLength, src, 0, src.length);
        } catch (RuntimeException e) {
            throw new IllegalStateException("a zstd frame did not decompress to " + rawLength + " bytes: "
                    + e.getMessage(), e);
        }
        if (n != rawLength) {
            throw new IllegalStateException("a zstd frame held " + n + " bytes where " + rawLength + " were written");
        }
        return raw;
    }

    /** Returns the instance to the pool, or frees its contexts when the pool has idle ones enough. */
    @Override
    public void close() {
        if (!lent) {
            return;
        }
        lent = false;
        if (frame.length > MAX_KEPT_BUFFER) {
            frame = NONE;
        }
        if (gathered.buffer().length > MAX_KEPT_BUFFER) {
            gathered = new Gathered();
        }
        if (IDLE_COUNT.incrementAndGet() <= MAX_IDLE) {
            IDLE.offer(this);
        } else {
            IDLE_COUNT.decrementAndGet();
            if (compressor != null) {
                compressor.close();
            }
            if (decompressor != null) {
                decompressor.close();
            }
        }
    }

    /** A byte stream whose array is read without a copy. */
    private static final class Gathered extends ByteArrayOutputStream {
        byte[] buffer() {
            return buf;
        }
    }

    /** The bytes of the buffers it keeps, for the tests. */
    long bufferBytes() {
        return frame.length + gathered.buffer().length;
    }

    /** Idle instances in the pool now, for the tests. */
    static int idle() {
        return IDLE_COUNT.get();
    }
}
