package io.sluice.storage.format;

import io.sluice.storage.value.ValueReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/** Records, a value schema and file writing shared by the format tests. */
final class FormatFixtures {

    static final String TOPIC = "orders";
    static final int PARTITION = 2;
    static final long BASE_TIMESTAMP = 1_790_000_000_000L;
    static final String[] CATEGORIES = {"click", "view", "buy"};

    /** Every kind of field the conversion handles, as a pipeline's value schema would have them. */
    static final String EVENT_SCHEMA = """
            {"type": "record", "name": "Event", "namespace": "io.sluice.test", "fields": [
              {"name": "id", "type": "long"},
              {"name": "category", "type": {"type": "enum", "name": "Category", "symbols": ["click", "view", "buy"]}},
              {"name": "amount", "type": ["null", "double"], "default": null},
              {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []},
              {"name": "user", "type": {"type": "record", "name": "User", "fields": [
                {"name": "name", "type": "string"},
                {"name": "age", "type": ["null", "int"], "default": null}]}},
              {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}}
            ]}""";

    /** The same event with every field nullable: tombstones can be rows. */
    static final String NULLABLE_SCHEMA = """
            {"type": "record", "name": "Change", "fields": [
              {"name": "id", "type": ["null", "long"], "default": null},
              {"name": "name", "type": ["null", "string"], "default": null}
            ]}""";

    private FormatFixtures() {
    }

    /** Event i: its fields vary with i so that values can be checked per offset. */
    static String event(long i) {
        StringBuilder tags = new StringBuilder();
        for (int t = 0; t < i % 4; t++) {
            tags.append(t == 0 ? "" : ",").append("\"t").append(t).append('"');
        }
        return "{\"id\": " + i * 10
                + ", \"category\": \"" + CATEGORIES[(int) (i % 3)] + "\""
                + (i % 5 == 0 ? "" : ", \"amount\": " + (i * 1.25))
                + ", \"tags\": [" + tags + "]"
                + ", \"user\": {\"name\": \"user-" + (i % 10) + "\"" + (i % 7 == 0 ? "" : ", \"age\": " + (20 + i % 50))
                + "}, \"at\": \"2026-11-20T10:00:" + String.format("%02d", i % 60) + "Z\""
                + ", \"price\": " + (i % 1000) + "." + String.format("%02d", i % 100) + "}";
    }

    static ConsumerRecord<byte[], byte[]> record(long offset, String key, String value) {
        RecordHeaders headers = new RecordHeaders();
        headers.add("trace", ("t-" + offset).getBytes(StandardCharsets.UTF_8));
        if (offset % 2 == 0) {
            headers.add("trace", null); // repeated names and null values must both survive
        }
        return new ConsumerRecord<>(TOPIC, PARTITION, offset, BASE_TIMESTAMP + offset, TimestampType.CREATE_TIME, -1,
                -1, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8), headers, Optional.empty());
    }

    static List<ConsumerRecord<byte[], byte[]>> events(int count) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            records.add(record(i, "key-" + i, event(i)));
        }
        return records;
    }

    /** Writes the records into {@code file} as the sink does: the stream stays the caller's, the writer finishes it. */
    static void write(FileFormat format, Path file, List<ConsumerRecord<byte[], byte[]>> records) throws Exception {
        ValueReader values = format.valueEncoding().reader(List.of(), format.decodesValues());
        try (OutputStream out = Files.newOutputStream(file); RecordWriter writer = format.open(out)) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                writer.write(r, format.decodesValues() && r.value() != null ? values.read(r.value()) : null);
            }
        }
    }

    static FormatConfig.Builder config(String format, String codec) {
        return FormatConfig.builder().format(format).codec(codec);
    }
}
