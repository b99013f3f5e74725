package io.sluice.storage.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class CodecTest {

    private static final byte[] LOG_LINES = ("{\"level\":\"INFO\",\"service\":\"checkout\",\"message\":\"request handled\"}\n")
            .repeat(20_000).getBytes(StandardCharsets.UTF_8);

    @ParameterizedTest
    @EnumSource(Codec.class)
    void roundTripsAndCompressesLogLines(Codec codec) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (OutputStream out = codec.compress(file)) {
            out.write(LOG_LINES);
        }
        try (InputStream in = codec.decompress(new ByteArrayInputStream(file.toByteArray()))) {
            assertArrayEquals(LOG_LINES, in.readAllBytes());
        }
        if (codec != Codec.NONE) {
            assertTrue(file.size() * 3 < LOG_LINES.length, codec + " compressed repetitive lines only to " + file.size());
        }
    }

    @Test
    void framesAreTheStandardOnesToolsRead() throws IOException {
        assertArrayEquals(new byte[] {0x1f, (byte) 0x8b}, magic(Codec.GZIP, 2));
        assertArrayEquals(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, magic(Codec.ZSTD, 4));
        assertArrayEquals(new byte[] {0x04, 0x22, 0x4d, 0x18}, magic(Codec.LZ4, 4));
        // the Snappy framing format starts with its stream identifier chunk: 0xff, length 6, "sNaPpY"
        assertArrayEquals(new byte[] {(byte) 0xff, 0x06, 0x00, 0x00, 's', 'N', 'a', 'P', 'p', 'Y'}, magic(Codec.SNAPPY, 10));
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Codec.parse("brotli"));
        assertTrue(e.getMessage().contains("none, gzip, zstd, lz4, snappy"), e.getMessage());
    }

    private static byte[] magic(Codec codec, int length) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (OutputStream out = codec.compress(file)) {
            out.write("x".getBytes(StandardCharsets.UTF_8));
        }
        return java.util.Arrays.copyOf(file.toByteArray(), length);
    }
}
