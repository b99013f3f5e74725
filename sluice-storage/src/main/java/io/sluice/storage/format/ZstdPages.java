package io.sluice.storage.format;

import io.sluice.storage.codec.ZstdBlocks;
import java.io.ByteArrayOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's zstd pages compressed in one call each by the writing thread's context ({@link ZstdBlocks}), in place of
 * parquet-java's codec, which opens a zstd stream for every page of every column: about a megabyte of native
 * workspace made and tables cleared each time, a cost that a file of a few hundred rows and tens of columns (one page
 * per column) paid more for than for its rows. The pages are the same zstd frames at the same level; every Parquet
 * reader reads them.
 *
 * <p>Only for writing: a writer never asks for a decompressor.
 *
 * <p>Threading: stateless; a page is compressed on the thread that writes it, and what {@link Compressor#compress}
 * returns is read by that thread before it compresses another (Parquet copies each compressed page at once, as it must
 * with its own codecs, whose result is a buffer they reuse).
 */
final class ZstdPages implements CompressionCodecFactory {

    static final ZstdPages FACTORY = new ZstdPages();
    private static final Compressor COMPRESSOR = new Compressor();
    /** The page's bytes gathered in one array, per thread: a page arrives as several slabs. */
    private static final ThreadLocal<Gathered> GATHERED = ThreadLocal.withInitial(Gathered::new);

    private ZstdPages() {
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        if (codec != CompressionCodecName.ZSTD) {
            throw new IllegalArgumentException("ZstdPages compresses zstd pages, not " + codec);
        }
        return COMPRESSOR;
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        throw new UnsupportedOperationException("ZstdPages only writes");
    }

    @Override
    public void release() {
        // nothing is held per writer: the contexts belong to the threads
    }

    private static final class Compressor implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput page) throws java.io.IOException {
            Gathered gathered = GATHERED.get();
            gathered.reset();
            page.writeAllTo(gathered);
            ZstdBlocks zstd = ZstdBlocks.ofThisThread();
            zstd.compress(gathered.buffer(), 0, gathered.size());
            return BytesInput.from(zstd.scratch(), 0, zstd.scratchLength());
        }

        @Override
        public CompressionCodecName getCodecName() {
            return CompressionCodecName.ZSTD;
        }

        @Override
        public void release() {
            // shared by every writer
        }
    }

    /** A byte stream whose array can be read without a copy. */
    private static final class Gathered extends ByteArrayOutputStream {
        byte[] buffer() {
            return buf;
        }
    }
}
