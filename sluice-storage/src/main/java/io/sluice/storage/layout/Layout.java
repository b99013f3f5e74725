package io.sluice.storage.layout;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.UnreadableFieldException;
import io.sluice.storage.value.ValueFields;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Where a record goes: a path template such as {@code {topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/}
 * rendered for the record. Placeholders: {@code {topic}}, {@code {partition}}, {@code {ts:<pattern>}} (the record's
 * time formatted with a {@link DateTimeFormatter} pattern in the layout's zone) and {@code {value.<path>}} (a scalar
 * field of the value, dots into nested objects or records).
 *
 * <p>The time is the record's timestamp, or a field of the value ({@code timeField}), read by the values' encoding
 * (JSON: epoch milliseconds or an ISO-8601 date-time with an offset; Avro: also {@code timestamp-millis} and
 * {@code timestamp-micros}). The layout names the fields it needs ({@link #fieldPaths()}); the sink decodes each value
 * once for them and hands the result in as {@link ValueFields}. A field that is missing or unreadable, and a
 * timestamp of -1 (none), go to {@code defaultBucket} when one is set, and otherwise rejects the record with the reason (the engine dead-letters
 * it). Field values are percent-encoded outside {@code [A-Za-z0-9._-]}, so a value can never leave its directory.
 *
 * <p>Thread-safe; immutable but for the time texts it remembers ({@link TimeText}).
 */
public final class Layout {

    private final List<Part> parts;
    private final List<FieldPath> fieldPaths;
    private final int timeFieldIndex;
    private final String timeFieldName;
    private final String defaultBucket;
    private final String timeMistake;

    private sealed interface Part permits Literal, Topic, PartitionNumber, Time, Field {
    }

    private record Literal(String text) implements Part {
    }

    private record Topic() implements Part {
    }

    private record PartitionNumber() implements Part {
    }

    private record Time(TimeText text) implements Part {
    }

    private record Field(String name, int index) implements Part {
    }

    /**
     * @param template      the path template; it must end with {@code /} (a directory)
     * @param timeField     a dotted path into the value for the time, or null for the record timestamp
     * @param zone          the time zone of {@code ts} placeholders
     * @param defaultBucket what to put for a missing or unreadable field, or null to reject such records
     */
    public Layout(String template, String timeField, ZoneId zone, String defaultBucket) {
        if (!template.endsWith("/")) {
            throw new IllegalArgumentException("the path template '" + template + "' must end with '/': it names a "
                    + "directory, and file names are Sluice's");
        }
        checkFolders(template);
        if (template.regionMatches(true, 0, OWN_FOLDER, 0, OWN_FOLDER.length())) {
            throw new IllegalArgumentException("the path template '" + template + "' begins with " + OWN_FOLDER
                    + ", the archive's own folder (its staged files and manifests): begin it with another name");
        }
        this.defaultBucket = defaultBucket == null ? null : encode(defaultBucket);
        this.timeFieldName = timeField;
        List<Part> parsed = new ArrayList<>();
        List<FieldPath> paths = new ArrayList<>();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                parsed.add(new Literal(template.substring(i)));
                break;
            }
            if (open > i) {
                parsed.add(new Literal(template.substring(i, open)));
            }
            int close = template.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed '{' at position " + open + " of the path template '"
                        + template + "'");
            }
            parsed.add(placeholder(template, template.substring(open + 1, close), zone, paths));
            i = close + 1;
        }
        if (timeField != null) {
            paths.add(FieldPath.of(timeField, true));
            this.timeFieldIndex = paths.size() - 1;
        } else {
            this.timeFieldIndex = -1;
        }
        this.parts = List.copyOf(parsed);
        this.fieldPaths = List.copyOf(paths);
        StringBuilder letters = new StringBuilder();
        for (int at = template.indexOf("{ts:"); at >= 0; at = template.indexOf("{ts:", at + 1)) {
            letters.append(TimeText.unquotedLetters(template.substring(at + 4, template.indexOf('}', at))));
        }
        this.timeMistake = TimeText.mistake(letters.toString());
    }

    /**
     * Why the template's time patterns, valid as they are, would file records in wrong folders, or null: letters that
     * read like the ones meant ({@code YYYY} for {@code yyyy}, {@code hh} without {@code a}, ...; a new user's run).
     * Said by the commands that run or validate a pipeline; one that reads an archive made so takes it as it is.
     */
    public String timeMistake() {
        return timeMistake;
    }

    /**
     * Every folder of the template stays below the archive's location and has a name: a leading '/', a '.' or '..'
     * folder, or '//' made paths that the storage refused at publishing, after the records were committed.
     */
    private static void checkFolders(String template) {
        if (template.startsWith("/")) {
            throw new IllegalArgumentException("the path template '" + template + "' starts with '/': its folders are "
                    + "below sink.location; remove the leading '/'");
        }
        for (String folder : template.substring(0, template.length() - 1).split("/", -1)) {
            if (folder.isEmpty()) {
                throw new IllegalArgumentException("the path template '" + template + "' has '//': a folder without "
                        + "a name");
            }
            if (folder.equals(".") || folder.equals("..")) {
                throw new IllegalArgumentException("the path template '" + template + "' has a '" + folder + "' "
                        + "folder: every file stays below sink.location, in folders the template names");
            }
        }
    }

    private static Part placeholder(String template, String name, ZoneId zone, List<FieldPath> paths) {
        if (name.equals("topic")) {
            return new Topic();
        }
        if (name.equals("partition")) {
            return new PartitionNumber();
        }
        if (name.startsWith("ts:")) {
            if (name.length() == 3) {
                throw new IllegalArgumentException("{ts:} in the path template '" + template + "' has no time pattern;"
                        + " e.g. {ts:yyyy-MM-dd}");
            }
            try {
                return new Time(new TimeText(name.substring(3), zone));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad time pattern '" + name.substring(3) + "' in the path template '"
                        + template + "': " + e.getMessage(), e);
            }
        }
        if (name.startsWith("value.") && name.length() > 6) {
            paths.add(FieldPath.of(name.substring(6), false));
            return new Field(name.substring(6), paths.size() - 1);
        }
        throw new IllegalArgumentException("unknown placeholder {" + name + "} in the path template '" + template
                + "'; known: {topic}, {partition}, {ts:<pattern>}, {value.<field>}");
    }

    /** The fields of the value the layout reads, in the order of {@link ValueFields}; empty when it needs none. */
    public List<FieldPath> fieldPaths() {
        return fieldPaths;
    }

    /**
     * The directory of {@code record}, relative to the sink's root, ending with '/'.
     *
     * @param fields the value's {@link #fieldPaths()}, or null for a tombstone or when the layout needs none
     */
    public String directory(ConsumerRecord<byte[], byte[]> record, ValueFields fields) throws RecordRejectedException {
        StringBuilder b = new StringBuilder(128);
        Instant time = null;
        for (Part part : parts) {
            if (part instanceof Literal l) {
                b.append(l.text());
            } else if (part instanceof Topic) {
                b.append(encode(record.topic()));
            } else if (part instanceof PartitionNumber) {
                b.append(record.partition());
            } else if (part instanceof Time t) {
                if (time == null) {
                    time = time(record, fields);
                }
                b.append(time == null ? defaultBucket : t.text().format(time));
            } else if (part instanceof Field f) {
                String value = fields == null ? null : fields.text(f.index());
                if (value == null) {
                    String why = fields == null ? null : fields.whyNoFields();
                    b.append(missing("value." + f.name(), why == null ? NOT_A_NAME : "is missing: " + why));
                } else if (value.isEmpty()) {
                    b.append(missing("value." + f.name(), "is an empty text: a folder needs a name"));
                } else {
                    b.append(encode(value));
                }
            }
        }
        if (b.length() >= OWN_FOLDER.length() && b.charAt(0) == '_' && startsWithOwnFolder(b)) {
            // a record whose folder came out as the archive's own (a value _sluice under {value.country}/) was filed
            // among the manifests, and verify called them unsound (a new user's run); any case, for file systems that
            // ignore it
            b.replace(0, 1, "%5F");
        }
        return b.toString();
    }

    /**
     * The time the layout files the record under (its time field, or its timestamp), or null when the template has no
     * time placeholder or the record goes to the default bucket.
     */
    public Instant timeOf(ConsumerRecord<byte[], byte[]> record, ValueFields fields) throws RecordRejectedException {
        for (Part part : parts) {
            if (part instanceof Time) {
                return time(record, fields);
            }
        }
        return null;
    }

    /** The record's time, or null when it goes to the default bucket. */
    private Instant time(ConsumerRecord<byte[], byte[]> record, ValueFields fields) throws RecordRejectedException {
        if (timeFieldIndex < 0) {
            if (record.timestamp() < 0) {
                // no time at all (-1): filed as 1969-12-31, a folder no query of the record's day would read
                missing("the record's timestamp", "is missing (-1: its producer gave none, or it was written in the "
                        + "message format of Kafka before 0.10)");
                return null;
            }
            return Instant.ofEpochMilli(record.timestamp());
        }
        try {
            Instant time = fields == null ? null : fields.time(timeFieldIndex);
            if (time == null) {
                String why = fields == null ? null : fields.whyNoFields();
                missing("value." + timeFieldName, why == null ? "is missing" : "is missing: " + why);
            }
            return time;
        } catch (UnreadableFieldException e) {
            missing("value." + timeFieldName, e.getMessage());
            return null;
        }
    }

    /** Why a field gives no folder name: the values' fields are read as scalars, so an object or a list is absent. */
    private static final String NOT_A_NAME = "is missing, null, or an object or a list: a folder name is made of a "
            + "text, a number or a boolean";

    private String missing(String field, String problem) throws RecordRejectedException {
        if (defaultBucket == null) {
            throw new RecordRejectedException("the path template needs " + field + ", which " + problem);
        }
        return defaultBucket;
    }

    /** The archive's own folder at the location's root, its staged files and manifests; records never go there. */
    private static final String OWN_FOLDER = "_sluice/";

    /**
     * Whether {@code b} begins with {@link #OWN_FOLDER}, in any case as {@link String#regionMatches(boolean, int,
     * String, int, int)} compares it, without copying {@code b} (a record's directory) into a string for that.
     */
    private static boolean startsWithOwnFolder(CharSequence b) {
        for (int i = 0; i < OWN_FOLDER.length(); i++) {
            if (Character.toLowerCase(Character.toUpperCase(b.charAt(i))) != OWN_FOLDER.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** Percent-encodes everything but {@code [A-Za-z0-9._-]}; "." and ".." are encoded too. */
    static String encode(String value) {
        if (value.equals(".") || value.equals("..")) {
            return value.replace(".", "%2E");
        }
        if (safe(value)) {
            return value; // the usual case, and a layout renders this for every record
        }
        StringBuilder b = new StringBuilder(value.length() + 16);
        for (byte c : value.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            if (safe(c)) {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit((c >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return b.toString();
    }

    private static boolean safe(String value) {
        for (int i = 0; i < value.length(); i++) {
            if (!safe(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean safe(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
                || c == '-';
    }
}
