package io.sluice.storage.json;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.ValueEncoding;
import io.sluice.storage.value.ValueReader;
import java.util.List;
import java.util.Set;

/**
 * JSON values: each is scanned once ({@link JsonScan}), which checks that it is JSON and picks out the layout's
 * fields. Any path is accepted, since JSON values carry no schema; a field a value lacks is missing for that record.
 *
 * <p>Immutable and thread-safe.
 */
public final class JsonEncoding implements ValueEncoding {

    public static final JsonEncoding INSTANCE = new JsonEncoding(null, null);

    /** Names a value's own members must not have, or null. */
    private final Set<String> reserved;
    /** What those names are for, in words: the end of the rejection's sentence. */
    private final String reservedFor;

    private JsonEncoding(Set<String> reserved, String reservedFor) {
        this.reserved = reserved;
        this.reservedFor = reservedFor;
    }

    /**
     * JSON values whose own members must not have any of {@code names}: a value that has one is rejected, its reason
     * ending with {@code usedFor} (what the names are for, and what to do).
     */
    public static JsonEncoding reserving(Set<String> names, String usedFor) {
        return new JsonEncoding(Set.copyOf(names), usedFor);
    }

    @Override
    public String name() {
        return "json";
    }

    /** The scan is the same whether a writer needs the whole value or not: JSON writers reread the bytes. */
    @Override
    public ValueReader reader(List<FieldPath> paths, boolean whole) {
        List<String[]> names = names(paths);
        return value -> {
            JsonScan scan;
            try {
                scan = reserved == null ? JsonScan.scan(value, names) : JsonScan.scan(value, names, reserved);
            } catch (MalformedJsonException e) {
                throw notJson(e);
            }
            if (scan.reservedName() != null) {
                throw new RecordRejectedException("the value has a member named '" + scan.reservedName() + "', "
                        + reservedFor);
            }
            return scan;
        };
    }

    /** Stops at the last field ({@link JsonScan#fields}): the writer parses the rest. */
    @Override
    public ValueReader fieldReader(List<FieldPath> paths) {
        List<String[]> names = names(paths);
        return value -> {
            try {
                return JsonScan.fields(value, names);
            } catch (MalformedJsonException e) {
                throw notJson(e);
            }
        };
    }

    private static List<String[]> names(List<FieldPath> paths) {
        List<String[]> names = paths.stream().map(p -> p.names().toArray(String[]::new)).toList();
        if (names.size() > JsonScan.MAX_PATHS) {
            throw new IllegalArgumentException("a layout reads at most " + JsonScan.MAX_PATHS + " fields of the "
                    + "values, not " + names.size() + "; use fewer {value.…} fields in the path template");
        }
        return names;
    }

    private static RecordRejectedException notJson(MalformedJsonException e) {
        return new RecordRejectedException("the value is not JSON: " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return name();
    }
}
