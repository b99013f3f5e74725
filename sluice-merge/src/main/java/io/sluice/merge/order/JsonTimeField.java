package io.sluice.merge.order;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The event time from a field of a JSON object value, found by a streaming scan that stops at the field: the rest of
 * the value is never parsed, and nothing but the parser is allocated. Numbers are epoch milliseconds; text is
 * ISO-8601 with an offset ({@code 2026-11-25T12:00:00.123Z}).
 *
 * <p>Threading: any thread (the factory is thread-safe; each call has its own parser).
 */
final class JsonTimeField implements EventTime {

    private static final JsonFactory JSON = new JsonFactory();

    private final List<String> path;
    private final String spec;

    JsonTimeField(String fieldPath) {
        this.path = List.of(fieldPath.split("\\."));
        if (path.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("order-by 'value." + fieldPath + "' has an empty field name");
        }
        this.spec = "value." + fieldPath;
    }

    @Override
    public String describe() {
        return spec;
    }

    @Override
    public long of(ConsumerRecord<byte[], byte[]> record) throws EventTimeException {
        byte[] value = record.value();
        if (value == null) {
            throw new EventTimeException("no value (a tombstone): " + spec + " needs a JSON object");
        }
        try (JsonParser parser = JSON.createParser(value)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new EventTimeException("the value is not a JSON object: " + spec + " needs one");
            }
            return find(parser, 0);
        } catch (IOException e) {
            throw new EventTimeException(spec + " needs a JSON object, but the value is not valid JSON ("
                    + firstLine(e.getMessage()) + ")");
        }
    }

    /** The parser is just inside an object at depth {@code level} of the path. */
    private long find(JsonParser parser, int level) throws IOException, EventTimeException {
        String wanted = path.get(level);
        JsonToken token;
        while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken valueToken = parser.nextToken();
            if (!name.equals(wanted)) {
                parser.skipChildren();
                continue;
            }
            if (level < path.size() - 1) {
                if (valueToken != JsonToken.START_OBJECT) {
                    throw new EventTimeException("field '" + String.join(".", path.subList(0, level + 1))
                            + "' is not an object, so " + spec + " cannot be read");
                }
                return find(parser, level + 1);
            }
            return time(parser, valueToken);
        }
        if (token == null) {
            throw new EventTimeException("the value is truncated JSON");
        }
        throw new EventTimeException("no field " + spec);
    }

    private long time(JsonParser parser, JsonToken token) throws IOException, EventTimeException {
        if (token == JsonToken.VALUE_NUMBER_INT) {
            return parser.getLongValue();
        }
        if (token == JsonToken.VALUE_STRING) {
            String text = parser.getText();
            try {
                return OffsetDateTime.parse(text).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                try {
                    return Instant.parse(text).toEpochMilli();
                } catch (DateTimeParseException again) {
                    throw new EventTimeException(spec + " is '" + text + "': expected ISO-8601 time with an offset "
                            + "(2026-11-25T12:00:00Z) or epoch milliseconds");
                }
            }
        }
        throw new EventTimeException(spec + " is " + parser.getText() + ": expected epoch milliseconds or ISO-8601 "
                + "text");
    }

    private static String firstLine(String message) {
        int end = message == null ? -1 : message.indexOf('\n');
        return end < 0 ? String.valueOf(message) : message.substring(0, end);
    }
}
