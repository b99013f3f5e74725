package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueFields;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The values' bytes as they are, one after another, in the codec's framing. No coordinates, key or headers: a raw
 * file is for tools that want the payloads themselves, and the audit cannot read offsets back from it.
 *
 * <ul>
 *   <li>{@link Delimiter#NEWLINE} ({@code .raw}): each value followed by {@code \n}. A value that contains {@code \n}
 *       would read back as two, and a tombstone (null value) as an empty value, so both are rejected with the reason
 *       (the engine dead-letters them): use the length delimiter for such topics.
 *   <li>{@link Delimiter#LENGTH} ({@code .rawlen}): each value preceded by its length as a 4-byte big-endian signed
 *       integer; a tombstone is the length {@code -1} with no bytes after it, so it stays apart from an empty value.
 * </ul>
 *
 * <p>Immutable and thread-safe; each {@link #open} returns a writer for one thread.
 */
public final class RawFormat implements FileFormat {

    /** How values are told apart in the file. */
    public enum Delimiter {
        NEWLINE(".raw"),
        LENGTH(".rawlen");

        private final String extension;

        Delimiter(String extension) {
            this.extension = extension;
        }
    }

    private final Delimiter delimiter;
    private final Codec codec;
    private final ValueEncoding values;

    /** @param values how the values are encoded: raw files keep the bytes, but the layout may read fields of them */
    RawFormat(Delimiter delimiter, Codec codec, ValueEncoding values) {
        this.delimiter = delimiter;
        this.codec = codec;
        this.values = values;
    }

    @Override
    public String extension() {
        return delimiter.extension + codec.extension();
    }

    /** Whether the name is a raw file's, with any delimiter and codec. */
    static boolean isRawFile(String fileName) {
        for (Delimiter d : Delimiter.values()) {
            for (Codec c : Codec.values()) {
                if (fileName.endsWith(d.extension + c.extension())) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public ValueEncoding valueEncoding() {
        return values;
    }

    @Override
    public boolean decodesValues() {
        return false;
    }

    @Override
    public RecordWriter open(OutputStream file) throws IOException {
        return open(file, Compressors.INLINE);
    }

    @Override
    public RecordWriter open(OutputStream file, Compressors compressors) throws IOException {
        return delimiter == Delimiter.NEWLINE ? new Lines(file, compressors) : new LengthPrefixed(file, compressors);
    }

    /** Newline-delimited files cannot hold a tombstone or a value with a newline; length-prefixed ones hold any. */
    @Override
    public void check(ConsumerRecord<byte[], byte[]> record, ValueFields fields) throws RecordRejectedException {
        if (delimiter != Delimiter.NEWLINE) {
            return;
        }
        byte[] value = record.value();
        if (value == null) {
            throw new RecordRejectedException("a tombstone (null value) cannot be written to a newline-delimited "
                    + "raw file: it would read back as an empty value; use the length delimiter, which marks it");
        }
        for (int i = 0; i < value.length; i++) {
            if (value[i] == '\n') {
                throw new RecordRejectedException("the value has a newline at byte " + i + ", so a newline-"
                        + "delimited raw file would split it in two; use the length delimiter");
            }
        }
    }

    private final class Lines extends StreamRecordWriter {
        Lines(OutputStream file, Compressors compressors) throws IOException {
            super(file, codec, compressors);
        }

        @Override
        public void write(ConsumerRecord<byte[], byte[]> record, ValueFields fields)
                throws IOException, RecordRejectedException {
            check(record, fields);
            out.write(record.value());
            out.write('\n');
            counted();
        }
    }

    private final class LengthPrefixed extends StreamRecordWriter {
        private final byte[] length = new byte[4];

        LengthPrefixed(OutputStream file, Compressors compressors) throws IOException {
            super(file, codec, compressors);
        }

        @Override
        public void write(ConsumerRecord<byte[], byte[]> record, ValueFields fields) throws IOException {
            byte[] value = record.value();
            int n = value == null ? -1 : value.length;
            length[0] = (byte) (n >>> 24);
            length[1] = (byte) (n >>> 16);
            length[2] = (byte) (n >>> 8);
            length[3] = (byte) n;
            out.write(length);
            if (value != null) {
                out.write(value);
            }
            counted();
        }
    }
}
