package io.sluice.storage.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.storage.value.UnreadableFieldException;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueTimes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass over a record's JSON value: checks that it is well-formed JSON and picks out the fields the layout needs
 * (dotted paths into nested objects, scalar values only). Streaming, so a value is read once and never built as a
 * tree.
 *
 * <p>Threading: instances are immutable; {@link #scan} is safe for concurrent use.
 */
public final class JsonScan implements ValueFields {

    private static final JsonFactory FACTORY = new JsonFactory();

    private final boolean object;
    private final boolean multiline;
    private final String[] fields;

    private JsonScan(boolean object, boolean multiline, String[] fields) {
        this.object = object;
        this.multiline = multiline;
        this.fields = fields;
    }

    /**
     * @param paths the fields wanted, each a path of names ({@code ["user", "country"]} for {@code user.country})
     * @throws MalformedJsonException saying where the value stops being JSON
     */
    public static JsonScan scan(byte[] value, List<String[]> paths) throws MalformedJsonException {
        String[] found = new String[paths.size()];
        try (JsonParser parser = FACTORY.createParser(value)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new MalformedJsonException("empty value, expected a JSON document");
            }
            boolean object = first == JsonToken.START_OBJECT;
            if (object) {
                scanObject(parser, new ArrayList<>(), paths, found);
            } else if (first.isStructStart()) {
                parser.skipChildren();
            }
            // the parser counts line breaks outside strings (inside, JSON forbids them): no second pass over the bytes
            boolean multiline = parser.currentLocation().getLineNr() > 1;
            if (parser.nextToken() != null) {
                throw new MalformedJsonException("unexpected content after the JSON document at "
                        + location(parser));
            }
            return new JsonScan(object, multiline, found);
        } catch (JsonParseException e) {
            throw new MalformedJsonException(e.getOriginalMessage() + " at " + location(e.getProcessor()), e);
        } catch (IOException e) {
            throw new MalformedJsonException(e.getMessage(), e);
        }
    }

    private static void scanObject(JsonParser parser, List<String> path, List<String[]> paths, String[] found)
            throws IOException {
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_OBJECT) {
            if (token == null) {
                throw new JsonParseException(parser, "unexpected end of input inside an object");
            }
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            path.add(name);
            if (value == JsonToken.START_OBJECT) {
                scanObject(parser, path, paths, found);
            } else if (value == JsonToken.START_ARRAY) {
                parser.skipChildren();
            } else {
                for (int i = 0; i < paths.size(); i++) {
                    if (found[i] == null && matches(paths.get(i), path)) {
                        found[i] = value == JsonToken.VALUE_NULL ? null : parser.getText();
                    }
                }
            }
            path.remove(path.size() - 1);
        }
    }

    private static boolean matches(String[] wanted, List<String> path) {
        if (wanted.length != path.size()) {
            return false;
        }
        for (int i = 0; i < wanted.length; i++) {
            if (!wanted[i].equals(path.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String location(JsonParser parser) {
        return parser == null ? "?" : "line " + parser.currentLocation().getLineNr() + ", column "
                + parser.currentLocation().getColumnNr();
    }

    /** Whether the value is a JSON object (rather than an array or a scalar). */
    public boolean isObject() {
        return object;
    }

    /** Whether the value's text spans several lines (pretty-printed): it must be compacted for JSON Lines. */
    public boolean isMultiline() {
        return multiline;
    }

    /** The scalar value at the i-th requested path, as text, or null when absent or JSON null. */
    @Override
    public String text(int i) {
        return fields[i];
    }

    /** Epoch milliseconds (a number or digits in a string), or an ISO-8601 date-time with an offset. */
    @Override
    public Instant time(int i) throws UnreadableFieldException {
        return fields[i] == null ? null : ValueTimes.parse(fields[i]);
    }
}
