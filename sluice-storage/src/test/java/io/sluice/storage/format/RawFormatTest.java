package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.record;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.codec.Codec;
import io.sluice.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Raw files decoded by hand from their documented framing, through the codec libraries' own streams. */
class RawFormatTest {

    @ParameterizedTest
    @EnumSource(Codec.class)
    void newlineDelimitedValuesComeBackLineByLine(Codec codec) throws Exception {
        FileFormat format = FormatFixtures.config("raw", codec.name()).delimiter("newline").build().fileFormat();
        assertEquals(".raw" + codec.extension(), format.extension());
        Path file = TestDirs.newDir("raw-lines").resolve("orders+2+0" + format.extension());
        List<String> values = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            values.add(i % 100 == 0 ? "" : FormatFixtures.event(i));
        }
        try (var out = Files.newOutputStream(file); RecordWriter writer = format.open(out)) {
            for (int i = 0; i < values.size(); i++) {
                writer.write(record(i, null, values.get(i)), null);
            }
            assertEquals("a tombstone (null value) cannot be written to a newline-delimited raw file: it would read "
                    + "back as an empty value; use the length delimiter, which marks it", assertThrows(
                            RecordRejectedException.class, () -> writer.write(record(9_000, null, null), null))
                    .getMessage());
            assertEquals("the value has a newline at byte 4, so a newline-delimited raw file would split it in two; "
                    + "use the length delimiter", assertThrows(RecordRejectedException.class,
                            () -> writer.write(record(9_001, null, "{\"a\"\n:1}"), null)).getMessage());
            assertEquals(2_000, writer.records());
        }
        String text;
        try (InputStream in = codec.decompress(Files.newInputStream(file))) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertEquals(String.join("\n", values) + "\n", text);
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void lengthDelimitedValuesKeepBinaryBytesEmptyValuesAndTombstones(Codec codec) throws Exception {
        FileFormat format = FormatFixtures.config("raw", codec.name()).delimiter("length").build().fileFormat();
        assertEquals(".rawlen" + codec.extension(), format.extension());
        Path file = TestDirs.newDir("raw-length").resolve("orders+2+0" + format.extension());
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            values.add(switch (i % 4) {
                case 0 -> null;
                case 1 -> new byte[0];
                case 2 -> new byte[] {0, '\n', (byte) 0xFF, (byte) i};
                default -> FormatFixtures.event(i).getBytes(StandardCharsets.UTF_8);
            });
        }
        try (var out = Files.newOutputStream(file); RecordWriter writer = format.open(out)) {
            for (int i = 0; i < values.size(); i++) {
                writer.write(new ConsumerRecord<>("orders", 2, i, 0L, TimestampType.CREATE_TIME, -1, -1, null,
                        values.get(i), new RecordHeaders(), Optional.empty()), null);
            }
        }
        List<byte[]> read = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(codec.decompress(Files.newInputStream(file)))) {
            while (true) {
                int length;
                try {
                    length = in.readInt(); // 4 bytes, big-endian, as documented
                } catch (EOFException end) {
                    break;
                }
                read.add(length == -1 ? null : in.readNBytes(length));
            }
        }
        assertEquals(values.size(), read.size());
        for (int i = 0; i < values.size(); i++) {
            assertArrayEquals(values.get(i), read.get(i), "value " + i);
        }
        ByteArrayOutputStream framing = new ByteArrayOutputStream();
        try (RecordWriter writer = FormatFixtures.config("raw", "none").delimiter("length").build().fileFormat()
                .open(framing)) {
            writer.write(record(0, null, "ab"), null);
            writer.write(record(1, null, null), null);
        }
        assertArrayEquals(new byte[] {0, 0, 0, 2, 'a', 'b', -1, -1, -1, -1}, framing.toByteArray());
    }
}
