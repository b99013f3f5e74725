package io.sluice.storage.codec;

import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.xerial.snappy.SnappyFramedInputStream;
import org.xerial.snappy.SnappyFramedOutputStream;

/**
 * Stream compression of line- and length-delimited files. Every codec writes a standard, self-describing framing that
 * common tools read: gzip (RFC 1952, {@code gzip -d}, DuckDB), Zstandard frames ({@code zstd -d}, DuckDB), the LZ4
 * frame format ({@code lz4 -d}; not the Hadoop block format), and the Snappy framing format ({@code .sz}, as in
 * {@code snzip -t framing2}; not raw Snappy blocks).
 */
public enum Codec {
    NONE(""),
    GZIP(".gz"),
    ZSTD(".zst"),
    LZ4(".lz4"),
    SNAPPY(".sz");

    private final String extension;

    /**
     * Zstandard's level 1, not the library's default 3: on the archive benchmark's 1 KB log lines, written a record at
     * a time as the formats do, level 1 compressed 5.21× at 272 MB/s and level 3 4.99× at 111 MB/s (one core, 100,000
     * lines); compression is most of an archive's CPU, so level 3 cost twice the CPU for a slightly worse ratio.
     * Parquet's pages and held records use it too ({@link ZstdBlocks}): at level 3, clearing its larger tables made a
     * small Parquet file (128 rows, 20 columns) cost 2.7 ms against 2.0 at level 1, for 1% smaller.
     */
    public static final int ZSTD_LEVEL = 1;
    /**
     * A 128 KiB window for the stream codec, not level 1's 512 KiB. An archive keeps tens of files open per partition
     * and compresses a chunk of each in turn, so every chunk finds its stream's window and tables out of the cache: on
     * the archive benchmark's 1 KB log lines, 40 streams fed 64 KiB chunks in turn cost 3.3-4.1 µs a line at the
     * default window against 2.4 for one stream; at 128 KiB, 2.3-2.4 µs (160 streams: 2.5-2.6 against 4.0-4.1), for
     * files 4% larger (one core, 500,000 lines, 2026-12-03). A window of 256 KiB saved nothing. Every zstd reader
     * takes it, and each open file holds less native memory.
     */
    public static final int ZSTD_STREAM_WINDOW_LOG = 17;

    Codec(String extension) {
        this.extension = extension;
    }

    /** The file name suffix, with its dot; empty for {@link #NONE}. */
    public String extension() {
        return extension;
    }

    /** Compresses what is written to the returned stream into {@code out}; closing it finishes the frame. */
    public OutputStream compress(OutputStream out) throws IOException {
        return switch (this) {
            case NONE -> out;
            case GZIP -> new GZIPOutputStream(out, 64 * 1024);
            // without a finalizer: a finalizable stream keeps what it writes into (a file's buffers, hundreds of
            // KiB) alive until the finalizer thread gets to it, and with files sealed by the thousand that was more
            // heap than the open files held (issue 17). Every stream is closed instead, given-up ones too
            // (Compressors), which frees zstd's native context
            case ZSTD -> new ZstdOutputStreamNoFinalizer(out, ZSTD_LEVEL).setWindowLog(ZSTD_STREAM_WINDOW_LOG);
            // 256 KiB blocks: the stream holds two blocks per open file, so 4 MiB blocks cost 8 MiB of heap each
            case LZ4 -> new LZ4FrameOutputStream(out, LZ4FrameOutputStream.BLOCKSIZE.SIZE_256KB);
            case SNAPPY -> new SnappyFramedOutputStream(out);
        };
    }

    /**
     * About how much heap the compressing stream holds while a file is open (its input and output buffers), so that
     * open files count against the memory budget. Native memory of zstd's context is not included.
     */
    public long heapBuffer() {
        return switch (this) {
            case NONE -> 0;
            case GZIP -> 64 * 1024 + 512; // the output buffer; the deflater's window is native memory
            case ZSTD -> 128 * 1024 + 8; // one compressed block out (ZSTD_CStreamOutSize)
            case LZ4 -> 2 * 256 * 1024 + 1024; // a block in and its compressed copy out
            case SNAPPY -> 2 * 64 * 1024 + 1024; // a 64 KiB chunk in and out
        };
    }

    public InputStream decompress(InputStream in) throws IOException {
        return switch (this) {
            case NONE -> in;
            case GZIP -> new GZIPInputStream(in, 64 * 1024);
            case ZSTD -> new ZstdInputStream(in);
            case LZ4 -> new LZ4FrameInputStream(in);
            case SNAPPY -> new SnappyFramedInputStream(in);
        };
    }

    /** Parses a codec name as users write it: none, gzip, zstd, lz4, snappy (any case). */
    public static Codec parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown codec '" + name + "'; expected one of none, gzip, zstd, lz4, "
                    + "snappy", e);
        }
    }
}
