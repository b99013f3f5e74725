package io.sluice.storage.format;

import io.sluice.storage.codec.ZstdBlocks;
import java.io.IOException;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Parquet's zstd pages compressed in one call each by a pooled context ({@link ZstdBlocks}), in place of parquet-java's
 * codec, which opens a zstd stream for every page of every column: about a megabyte of native workspace made and
 * tables cleared each time, a cost that a file of a few hundred rows and tens of columns (one page per column) paid more
 * for than for its rows. The pages are the same zstd frames at the same level; every Parquet reader reads them.
 *
 * <p>Only for writing: a writer never asks for a decompressor.
 *
 * <p>Threading: stateless; each page is compressed on the thread that writes it, into an array of its own.
 */
final class ZstdPages implements CompressionCodecFactory {

    static final ZstdPages FACTORY = new ZstdPages();
    private static final Compressor COMPRESSOR = new Compressor();

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
        // nothing is held per writer: the contexts are pooled
    }

    private static final class Compressor implements BytesInputCompressor {
        @Override
        public BytesInput compress(BytesInput page) throws IOException {
            try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
                page.writeAllTo(zstd.gather()); // a page arrives as several slabs
                return BytesInput.from(zstd.compressGathered());
            }
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
}
