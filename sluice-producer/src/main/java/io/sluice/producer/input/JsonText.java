package io.sluice.producer.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * JSON as the input parsers read it: a line parsed into a tree with an error in words, and a field's value as the
 * bytes a record carries (a string's own text, anything else its JSON).
 *
 * <p>Stateless; the mapper is thread-safe.
 */
final class JsonText {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonText() {
    }

    static JsonNode parse(byte[] line) throws BadInputException {
        try (JsonParser parser = MAPPER.createParser(line)) {
            JsonNode node = MAPPER.readTree(parser);
            if (node == null || node.isMissingNode()) {
                throw new BadInputException(line.length == 0 ? "expected JSON, found an empty line"
                        : "expected JSON, found a line of blanks only");
            }
            // nothing but spaces may follow: a JSON line is sent byte for byte, so {"a":1} junk would reach the
            // topic as a value no JSON reader reads, and the rest of an envelope's line would be dropped unread
            long end = parser.currentLocation().getColumnNr();
            if (parser.nextToken() != null) {
                throw new BadInputException("expected one JSON value, found more after it at column " + end);
            }
            return node;
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : " at column " + e.getLocation().getColumnNr();
            throw new BadInputException("expected JSON, found a syntax error" + where + ": " + words(e));
        } catch (IOException e) {
            throw new BadInputException("expected JSON: " + e.getMessage());
        }
    }

    /** The parser's message without its own note of where (the parser's source description, a "start marker"). */
    private static String words(JsonProcessingException e) {
        String message = e.getOriginalMessage();
        int marker = message.indexOf(" (start marker at ");
        return marker < 0 ? message : message.substring(0, marker);
    }

    /** Null for JSON null; a string's text (not its quoted JSON); any other value as JSON text. */
    static byte[] bytes(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        return (value.isTextual() ? value.textValue() : value.toString()).getBytes(StandardCharsets.UTF_8);
    }

    /** What a value is, for errors: "a string", "a number", ... */
    static String kind(JsonNode value) {
        return switch (value.getNodeType()) {
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> value.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
    }
}
