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
import java.util.List;
import java.util.Set;

/**
 * One pass over a record's JSON value: checks that it is well-formed JSON and picks out the fields the layout needs
 * (dotted paths into nested objects, scalar values only). Streaming, so a value is read once and never built as a
 * tree.
 *
 * <p>Threading: instances are immutable; {@link #scan} is safe for concurrent use.
 */
public final class JsonScan implements ValueFields {

    private static final JsonFactory FACTORY = new JsonFactory();
    /** The paths one scan follows: a bit each in a long. */
    public static final int MAX_PATHS = 64;

    /** The value's first token: what kind of JSON it is. */
    private final JsonToken first;
    private final boolean multiline;
    private final String[] fields;
    /** The first of the object's own names that the caller reserved, or null. */
    private final String reservedName;

    private JsonScan(JsonToken first, boolean multiline, String[] fields, String reservedName) {
        this.first = first;
        this.multiline = multiline;
        this.fields = fields;
        this.reservedName = reservedName;
    }

    /**
     * @param paths the fields wanted, each a path of names ({@code ["user", "country"]} for {@code user.country}); at
     *     most {@link #MAX_PATHS}
     * @throws MalformedJsonException saying where the value stops being JSON
     */
    public static JsonScan scan(byte[] value, List<String[]> paths) throws MalformedJsonException {
        return scan(value, paths, false, null);
    }

    /**
     * As {@link #scan(byte[], List)}, and notes the first name of the object's own members (not of objects within) that
     * is one of {@code reserved} ({@link #reservedName}).
     */
    public static JsonScan scan(byte[] value, List<String[]> paths, Set<String> reserved)
            throws MalformedJsonException {
        return scan(value, paths, false, reserved);
    }

    /**
     * Picks out the fields as {@link #scan} does, but stops once it has them all: for a caller that parses the whole
     * value itself and rejects what is not JSON (a value converted to a schema's row), so that the fields are not
     * followed by a second check of the rest. Only the fields and {@link #isObject()} are known.
     *
     * @throws MalformedJsonException saying where the value stops being JSON, when it does before the fields end
     */
    public static JsonScan fields(byte[] value, List<String[]> paths) throws MalformedJsonException {
        return scan(value, paths, true, null);
    }

    private static JsonScan scan(byte[] value, List<String[]> paths, boolean untilFound, Set<String> reserved)
            throws MalformedJsonException {
        if (paths.size() > MAX_PATHS) {
            throw new IllegalArgumentException("at most " + MAX_PATHS + " paths, not " + paths.size());
        }
        String[] found = new String[paths.size()];
        try (JsonParser parser = FACTORY.createParser(value)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new MalformedJsonException("empty value, expected a JSON document");
            }
            boolean object = first == JsonToken.START_OBJECT;
            int[] left = untilFound ? new int[] {paths.size()} : null;
            String[] clash = reserved == null ? null : new String[1];
            if (object && (left == null || left[0] > 0)) {
                long all = paths.size() == MAX_PATHS ? -1L : (1L << paths.size()) - 1;
                scanObject(parser, 0, all, paths, found, left, reserved, clash);
            } else if (first.isStructStart() && !untilFound) {
                parser.skipChildren();
            }
            if (untilFound) {
                return new JsonScan(first, false, found, null);
            }
            // the parser counts line breaks outside strings (inside, JSON forbids them): no second pass over the bytes
            boolean multiline = parser.currentLocation().getLineNr() > 1;
            if (parser.nextToken() != null) {
                throw new MalformedJsonException("unexpected content after the JSON document at "
                        + JsonErrors.location(parser));
            }
            return new JsonScan(first, multiline, found, clash == null ? null : clash[0]);
        } catch (JsonParseException e) {
            throw new MalformedJsonException(JsonErrors.describe(e), e);
        } catch (IOException e) {
            throw new MalformedJsonException(e.getMessage(), e);
        }
    }

    /** The first of the object's own names that the caller reserved, or null (always null unless asked). */
    public String reservedName() {
        return reservedName;
    }

    /**
     * Reads the object the parser is in up to its end. {@code candidates} has a bit set for each path whose first
     * {@code depth} names lead here; an object no path leads into is skipped whole (still checked), without comparing
     * its names. A path found drops out of the candidates, so once every path is found the rest of the value is only
     * checked, its names no longer compared (they were 6% of an archive's CPU samples on the benchmark's log lines,
     * whose layout fields come first).
     *
     * @param left with {@link #fields}: how many paths are still to be found, and the scan ends when none is; else null
     * @return the paths found (with a value other than JSON null) in this object or below
     */
    private static long scanObject(JsonParser parser, int depth, long candidates, List<String[]> paths,
            String[] found, int[] left, Set<String> reserved, String[] clash) throws IOException {
        long foundHere = 0;
        JsonToken token;
        while ((token = parser.nextToken()) != JsonToken.END_OBJECT) {
            if (token == null) {
                throw new JsonParseException(parser, "unexpected end of input inside an object");
            }
            if (reserved != null && clash[0] == null && reserved.contains(parser.currentName())) {
                clash[0] = parser.currentName();
            }
            JsonToken value = parser.nextToken();
            long here = candidates == 0 ? 0 : matching(parser.currentName(), depth, candidates, paths);
            if (value == JsonToken.START_OBJECT) {
                if (here == 0) {
                    parser.skipChildren();
                } else {
                    long below = scanObject(parser, depth + 1, here, paths, found, left, null, null);
                    foundHere |= below;
                    candidates &= ~below;
                    if (left != null && left[0] == 0) {
                        return foundHere;
                    }
                }
            } else if (value == JsonToken.START_ARRAY) {
                parser.skipChildren();
            } else if (here != 0) {
                for (int i = 0; i < paths.size(); i++) {
                    if ((here & (1L << i)) != 0 && paths.get(i).length == depth + 1 && found[i] == null) {
                        if (value != JsonToken.VALUE_NULL) {
                            found[i] = parser.getText();
                            foundHere |= 1L << i;
                            candidates &= ~(1L << i);
                            if (left != null) {
                                left[0]--;
                            }
                        }
                    }
                }
                if (left != null && left[0] == 0) {
                    return foundHere;
                }
            }
        }
        return foundHere;
    }

    /** Of {@code candidates}, the paths whose name at {@code depth} is {@code name}. */
    private static long matching(String name, int depth, long candidates, List<String[]> paths) {
        long here = 0;
        for (int i = 0; i < paths.size(); i++) {
            if ((candidates & (1L << i)) != 0) {
                String[] path = paths.get(i);
                if (path.length > depth && path[depth].equals(name)) {
                    here |= 1L << i;
                }
            }
        }
        return here;
    }

    /** Whether the value is a JSON object (rather than an array or a scalar). */
    public boolean isObject() {
        return first == JsonToken.START_OBJECT;
    }

    @Override
    public String whyNoFields() {
        String kind = switch (first) {
            case START_OBJECT -> null;
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            default -> "null";
        };
        return kind == null ? null : "the value is " + kind + " in JSON, not an object";
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
