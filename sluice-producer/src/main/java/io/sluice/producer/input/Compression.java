package io.sluice.producer.input;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * How an input is compressed, told by its first bytes (its magic number) rather than by its name: a file called
 * {@code .log} may well be gzip, and standard input has no name at all.
 */
public enum Compression {
    NONE(new byte[0]),
    GZIP(new byte[] {0x1f, (byte) 0x8b}),
    ZSTD(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}),
    LZ4(new byte[] {0x04, 0x22, 0x4d, 0x18});

    private final byte[] magic;

    Compression(byte[] magic) {
        this.magic = magic;
    }

    /**
     * {@code raw} decompressed when it starts with a known magic number, else as it is (buffered either way). A gzip
     * input is read member after member to its end ({@code cat a.gz b.gz |} is one input of two members), and what
     * follows its last member must be gzip too, or reading fails: the JDK's own reader decides whether another member
     * follows by asking a pipe how many bytes it has ready, so on a pipe that is briefly empty it ended after the
     * first file without a word, and it ignored anything that was not gzip after a member.
     */
    public static InputStream decompressed(InputStream raw) throws IOException {
        BufferedInputStream in = new BufferedInputStream(raw, 64 * 1024);
        return switch (detect(in)) {
            case GZIP -> new BufferedInputStream(new GzipCompressorInputStream(in, true), 64 * 1024);
            case ZSTD -> new BufferedInputStream(new ZstdInputStream(in), 64 * 1024);
            case LZ4 -> new BufferedInputStream(new LZ4FrameInputStream(in), 64 * 1024);
            case NONE -> in;
        };
    }

    /** Peeks at the first bytes of {@code in}, which is left where it was. */
    static Compression detect(BufferedInputStream in) throws IOException {
        in.mark(4);
        byte[] head = in.readNBytes(4);
        in.reset();
        for (Compression c : values()) {
            if (c != NONE && startsWith(head, c.magic)) {
                return c;
            }
        }
        return NONE;
    }

    private static boolean startsWith(byte[] head, byte[] magic) {
        if (head.length < magic.length) {
            return false;
        }
        for (int i = 0; i < magic.length; i++) {
            if (head[i] != magic[i]) {
                return false;
            }
        }
        return true;
    }
}
