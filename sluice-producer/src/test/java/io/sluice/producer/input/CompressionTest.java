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
