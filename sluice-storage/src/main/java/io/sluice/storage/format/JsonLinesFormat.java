package io.sluice.storage.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.json.JsonEncoding;
import io.sluice.storage.json.JsonScan;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueFields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * JSON Lines: one JSON object per line, {@code \n}-terminated, UTF-8, in the chosen codec's framing.
 *
 * <p>Each line is the record's value with the Kafka coordinates added in front: {@code kafka_topic},
 * {@code kafka_partition}, {@code kafka_offset}, {@code kafka_timestamp} (epoch milliseconds), and optionally
 * {@code kafka_key} (the key as UTF-8 text) and {@code kafka_headers} (an array of {@code {"key": ..., "value": ...}}
 * objects with UTF-8 values, in record order: Kafka allows a header name more than once, and an object with a
 * repeated name is one that DuckDB, among others, refuses to read).
 * A value that is a JSON object is spliced in as it is (no re-encoding), compacted first if it spans lines; a value
 * that is an array or a scalar goes under {@code value}; a tombstone (null value) is written with
 * {@code "value": null}, so deletes survive into the archive. Values must be JSON: Avro values are refused when the
 * format is configured ({@link FormatConfig}).
 */
public final class JsonLinesFormat implements FileFormat {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final JsonStringEncoder ENCODER = JsonStringEncoder.getInstance();
    private static final byte[] TOPIC = utf8("{\"kafka_topic\":");
    private static final byte[] PARTITION = utf8(",\"kafka_partition\":");
    private static final byte[] OFFSET = utf8(",\"kafka_offset\":");
    private static final byte[] TIMESTAMP = utf8(",\"kafka_timestamp\":");
    private static final byte[] KEY = utf8(",\"kafka_key\":");
    private static final byte[] HEADERS = utf8(",\"kafka_headers\":[");
    private static final byte[] HEADER_KEY = utf8("{\"key\":");
    private static final byte[] HEADER_VALUE = utf8(",\"value\":");
    private static final byte[] VALUE = utf8(",\"value\":");
    private static final byte[] NULL_VALUE = utf8(",\"value\":null}\n");

    private final Codec codec;
    private final boolean keys;
    private final boolean headers;
    /**
     * JSON values whose own members are not named as the coordinates: a line would hold such a name twice (a value
     * replayed from a JSON Lines archive has them all), which jq reads as the value's and DuckDB refuses to read, while
     * verify took the first (a new user's run).
     */
    private final ValueEncoding values;

    public JsonLinesFormat(Codec codec, boolean keys, boolean headers) {
        this.codec = codec;
        this.keys = keys;
        this.headers = headers;
        Set<String> coordinates = new HashSet<>(Set.of("kafka_topic", "kafka_partition", "kafka_offset",
                "kafka_timestamp"));
        if (keys) {
            coordinates.add("kafka_key");
        }
        if (headers) {
            coordinates.add("kafka_headers");
        }
        this.values = JsonEncoding.reserving(coordinates, "a name each line of a JSON Lines file gives the record's "
                + "own coordinate: the line would hold it twice (DuckDB refuses such a file, jq reads the value's). "
                + "Rename it in the values, or archive them as parquet or raw");
    }

    /** The codec the files are compressed with. */
    public Codec codec() {
        return codec;
    }

    @Override
    public String extension() {
        return ".jsonl" + codec.extension();
    }

    @Override
    public ValueEncoding valueEncoding() {
        return values;
    }

    @Override
    public boolean decodesValues() {
        return true;
    }

    @Override
    public RecordWriter open(OutputStream file) throws IOException {
        return new Writer(file, Compressors.INLINE);
    }

    @Override
    public RecordWriter open(OutputStream file, Compressors compressors) throws IOException {
        return new Writer(file, compressors);
    }

    private final class Writer extends StreamRecordWriter {
        private final ByteArrayOutputStream prefix = new ByteArrayOutputStream(256);
        private final byte[] digits = new byte[19];
        /** The topic of the last line and its escaped bytes: a file's lines are all of one partition. */
        private String topic;
        private byte[] topicEscaped;

        Writer(OutputStream file, Compressors compressors) throws IOException {
            super(file, codec, compressors);
        }

        @Override
        public void write(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws IOException {
            // the coordinates, written by hand: a generator per record would cost more than the rest of the line
            prefix.reset();
            prefix.write(TOPIC);
            if (!record.topic().equals(topic)) {
                topic = record.topic();
                topicEscaped = ENCODER.quoteAsUTF8(topic);
            }
            quoted(topicEscaped);
            prefix.write(PARTITION);
            number(record.partition());
            prefix.write(OFFSET);
            number(record.offset());
            prefix.write(TIMESTAMP);
            number(record.timestamp());
            if (keys) {
                prefix.write(KEY);
                if (record.key() == null) {
                    ascii("null");
                } else {
                    quoted(new String(record.key(), StandardCharsets.UTF_8));
                }
            }
            if (headers) {
                prefix.write(HEADERS);
                boolean first = true;
                for (Header h : record.headers()) {
                    if (!first) {
                        prefix.write(',');
                    }
                    first = false;
                    prefix.write(HEADER_KEY);
                    quoted(h.key());
                    prefix.write(HEADER_VALUE);
                    if (h.value() == null) {
                        ascii("null");
                    } else {
                        quoted(new String(h.value(), StandardCharsets.UTF_8));
                    }
                    prefix.write('}');
                }
                prefix.write(']');
            }
            byte[] bytes = record.value();
            prefix.writeTo(out);
            if (bytes == null) {
                out.write(NULL_VALUE);
            } else {
                JsonScan scan = (JsonScan) value; // this format's values are JSON, so the sink scanned them
                if (scan.isMultiline()) {
                    bytes = compact(bytes);
                }
                if (scan.isObject()) {
                    spliceObject(bytes);
                } else {
                    out.write(VALUE);
                    out.write(bytes);
                    out.write('}');
                }
                out.write('\n');
            }
            counted();
        }

        private void quoted(String text) {
            quoted(ENCODER.quoteAsUTF8(text));
        }

        private void quoted(byte[] escaped) {
            prefix.write('"');
            prefix.write(escaped, 0, escaped.length);
            prefix.write('"');
        }

        /** Decimal digits without a String per number: three numbers a line show in profiles. */
        private void number(long n) {
            if (n < 0) {
                prefix.write('-');
                if (n == Long.MIN_VALUE) {
                    ascii("9223372036854775808");
                    return;
                }
                n = -n;
            }
            int at = digits.length;
            do {
                digits[--at] = (byte) ('0' + n % 10);
                n /= 10;
            } while (n > 0);
            prefix.write(digits, at, digits.length - at);
        }

        private void ascii(String text) {
            for (int i = 0; i < text.length(); i++) {
                prefix.write(text.charAt(i));
            }
        }

        /** Writes the object's members after the coordinates: everything after its opening brace. */
        private void spliceObject(byte[] value) throws IOException {
            int open = 0;
            while (value[open] != '{') {
                open++;
            }
            int next = open + 1;
            while (next < value.length && Character.isWhitespace(value[next])) {
                next++;
            }
            if (value[next] != '}') {
                out.write(',');
            }
            int end = value.length;
            while (Character.isWhitespace(value[end - 1])) {
                end--;
            }
            out.write(value, next, end - next);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] compact(byte[] value) throws IOException {
        ByteArrayOutputStream compacted = new ByteArrayOutputStream(value.length);
        try (JsonParser p = FACTORY.createParser(value); JsonGenerator g = FACTORY.createGenerator(compacted)) {
            while (p.nextToken() != null) {
                g.copyCurrentEvent(p);
            }
        }
        return compacted.toByteArray();
    }
}
