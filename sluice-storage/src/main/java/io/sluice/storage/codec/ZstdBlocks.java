package io.sluice.storage.codec;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import java.util.Arrays;

/**
 * Whole blocks compressed with zstd in one call (a Parquet page, a chunk of held records), by contexts that each thread
 * keeps. zstd's one-call API knows the block's size, so a small block gets tables sized to it; a stream opened per
 * block (what parquet-java does for every page) allocates about a megabyte of native workspace and clears tables sized
 * for an unknown input each time, which made a small Parquet file's pages cost more than their rows (issue 17).
 *
 * <p>Each call returns a complete zstd frame that any zstd reader decompresses, streaming or not.
 *
 * <p>Threading: {@link #ofThisThread()} gives the calling thread its own instance; an instance is used by that thread
 * only. The result of {@link #compress} is a view of the thread's scratch buffer, valid until the thread's next call.
 */
public final class ZstdBlocks {

    private static final ThreadLocal<ZstdBlocks> BY_THREAD = ThreadLocal.withInitial(ZstdBlocks::new);

    private final ZstdCompressCtx compressor = new ZstdCompressCtx().setLevel(Codec.ZSTD_LEVEL);
    private final ZstdDecompressCtx decompressor = new ZstdDecompressCtx();
    private byte[] scratch = new byte[0];
    private int scratchLength;

    private ZstdBlocks() {
    }

    public static ZstdBlocks ofThisThread() {
        return BY_THREAD.get();
    }

    /** Compresses {@code src[off, off + len)}; the frame is {@link #scratch()}'s first {@link #scratchLength()} bytes. */
    public void compress(byte[] src, int off, int len) {
        int bound = (int) Zstd.compressBound(len);
        if (scratch.length < bound) {
            scratch = new byte[bound];
        }
        scratchLength = compressor.compressByteArray(scratch, 0, bound, src, off, len);
    }

    /** The last frame {@link #compress} made, in a buffer the next call reuses. */
    public byte[] scratch() {
        return scratch;
    }

    public int scratchLength() {
        return scratchLength;
    }

    /** The last frame {@link #compress} made, in an array of its own. */
    public byte[] copyOfFrame() {
        return Arrays.copyOf(scratch, scratchLength);
    }

    /**
     * Decompresses a frame whose content is {@code rawLength} bytes.
     *
     * @throws IllegalStateException when the frame is damaged or holds another length
     */
    public byte[] decompress(byte[] frame, int rawLength) {
        byte[] raw = new byte[rawLength];
        int n = decompressor.decompressByteArray(raw, 0, rawLength, frame, 0, frame.length);
        if (n != rawLength) {
            throw new IllegalStateException("a zstd frame held " + n + " bytes where " + rawLength + " were written");
        }
        return raw;
    }
}
