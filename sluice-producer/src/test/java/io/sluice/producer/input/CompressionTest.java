package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;

/** Compression is told by the first bytes, whatever the name; anything else is read as it is. */
class CompressionTest {

    private static final String TEXT = "a\nb\nc\n".repeat(1000);

    @Test
    void gzipZstdAndLz4AreDetectedAndPlainTextIsLeftAlone() throws IOException {
        assertEquals(TEXT, read(compressed(GZIPOutputStream::new)));
        assertEquals(TEXT, read(compressed(ZstdOutputStream::new)));
        assertEquals(TEXT, read(compressed(LZ4FrameOutputStream::new)));
        assertEquals(TEXT, read(TEXT.getBytes(StandardCharsets.UTF_8)));
        assertEquals("", read(new byte[0]));
        assertEquals("\u001f", read(new byte[] {0x1f}), "a lone first byte of a magic number is text");
    }

    /**
     * {@code cat a.gz b.gz | sluice produce}: the JDK's reader asked the pipe whether more was ready after the first
     * member, and a pipe briefly empty ended the input there, without a word.
     */
    @Test
    void gzipMembersOneAfterAnotherAreReadToTheEndFromAPipeThatIsBrieflyEmpty() throws IOException {
        byte[] first = compressed(GZIPOutputStream::new);
        byte[] second = gzip("d\ne\n");
        try (InputStream in = Compression.decompressed(new Pipe(first, second))) {
            assertEquals(TEXT + "d\ne\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    /** A pipe whose writer writes each part whole, and has nothing ready between them. */
    private static final class Pipe extends InputStream {
        private final byte[][] parts;
        private int part;
        private int at;

        Pipe(byte[]... parts) {
            this.parts = parts;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            while (part < parts.length && at == parts[part].length) {
                part++;
                at = 0;
            }
            if (part == parts.length) {
                return -1;
            }
            int n = Math.min(len, parts[part].length - at); // never past the part: the next one is not written yet
            System.arraycopy(parts[part], at, b, off, n);
            at += n;
            return n;
        }

        @Override
        public int available() {
            return 0;
        }
    }

    private interface Wrapper {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    private static byte[] compressed(Wrapper wrapper) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = wrapper.wrap(bytes)) {
            out.write(TEXT.getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private static String read(byte[] bytes) throws IOException {
        try (InputStream in = Compression.decompressed(new ByteArrayInputStream(bytes))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
