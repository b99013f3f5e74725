package io.sluice.producer.input;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A JSON envelope, {@code {"key":..,"value":..,"headers":{..},"partition":..,"timestamp":..}}: only {@code value} is
 * required (it may be null: a tombstone). A key or value that is a string is sent as its text, anything else as its
 * JSON. An unknown field fails the line: a misspelt {@code "partiton"} would otherwise be dropped without a word.
 */
final class EnvelopeParser implements RecordParser {

    private static final Set<String> FIELDS = Set.of("key", "value", "headers", "partition", "timestamp");

    @Override
    public InputRecord parse(InputLine line) throws BadInputException {
        JsonNode node = JsonText.parse(line.bytes());
        if (!node.isObject()) {
            throw new BadInputException("expected an envelope, a JSON object {\"key\":..,\"value\":..}, found "
                    + JsonText.kind(node));
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                throw new BadInputException("unexpected field \"" + name + "\": an envelope has key, value, headers, "
                        + "partition and timestamp");
            }
        }
        if (!node.has("value")) {
            throw new BadInputException("field \"value\": missing (an envelope needs one; null for a tombstone)");
        }
        return new InputRecord(line.origin(), JsonText.bytes(node.get("key")), JsonText.bytes(node.get("value")),
                headers(node.get("headers")), partition(node.get("partition")), timestamp(node.get("timestamp")));
    }

    private static List<Header> headers(JsonNode headers) throws BadInputException {
        if (headers == null || headers.isNull()) {
            return List.of();
        }
        if (!headers.isObject()) {
            throw new BadInputException("field \"headers\": expected an object of names and strings, found "
                    + JsonText.kind(headers));
        }
        List<Header> result = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = headers.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (!v.isTextual() && !v.isNull()) {
                throw new BadInputException("field \"headers." + e.getKey() + "\": expected a string or null, found "
                        + JsonText.kind(v));
            }
            result.add(new RecordHeader(e.getKey(), v.isNull() ? null : v.textValue().getBytes(StandardCharsets.UTF_8)));
        }
        return result;
    }

    private static Integer partition(JsonNode partition) throws BadInputException {
        if (partition == null || partition.isNull()) {
            return null;
        }
        if (!partition.canConvertToInt() || !partition.isIntegralNumber() || partition.intValue() < 0) {
            throw new BadInputException("field \"partition\": expected a partition number (0 or more), found "
                    + (partition.isNumber() ? partition.toString() : JsonText.kind(partition)));
        }
        return partition.intValue();
    }

    private static Long timestamp(JsonNode timestamp) throws BadInputException {
        if (timestamp == null || timestamp.isNull()) {
            return null;
        }
        if (!timestamp.isIntegralNumber() || !timestamp.canConvertToLong() || timestamp.longValue() < 0) {
            throw new BadInputException("field \"timestamp\": expected milliseconds since 1970 (0 or more), found "
                    + (timestamp.isNumber() ? timestamp.toString() : JsonText.kind(timestamp)));
        }
        return timestamp.longValue();
    }
}
