package io.sluice.storage.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.json.JsonErrors;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Converts a JSON value into Avro data of a record schema, in one streaming pass, and says precisely where a value
 * does not fit: the field path, the type expected and what was found.
 *
 * <p>The mapping is plain JSON, not Avro's JSON encoding: a union takes the bare value (no {@code {"string": ...}}
 * wrapper) and picks its branch by the JSON token (null, boolean, number, text, object, array), so a schema may not
 * have two record or map branches, or two array branches, in one union. Numbers must fit: an {@code int} takes an
 * integer in int range, never {@code 1.5}; {@code float} and {@code double} take any number. {@code bytes} and
 * {@code fixed} are base64 text. Logical types take their number or a text form: {@code date} a day number or
 * {@code yyyy-MM-dd}; {@code time-*} a number or {@code HH:mm:ss[.fff]}; {@code timestamp-*} an epoch number or an
 * ISO-8601 date-time with an offset; {@code local-timestamp-*} an epoch number or an ISO-8601 local date-time;
 * {@code decimal} a number or numeric text with no more decimal places than its scale; {@code uuid} UUID text.
 *
 * <p>A field missing from the JSON takes its default, or null when its type is nullable; otherwise the value is
 * rejected. A JSON field the schema does not have is rejected too, never dropped in silence, as is a field given
 * twice. Recursive schemas are not supported (Parquet cannot hold them).
 *
 * <p>Threading: safe for concurrent use. Its only state after construction is each record's guess of the order its
 * fields come in, written without synchronization by whichever thread last saw the order change: a stale or lost
 * guess costs a field name looked up, never a wrong result.
 */
final class JsonToAvro {

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final int SHOWN_CHARS = 40;
    /**
     * A value no longer than this cannot hold a string longer than the parser reads; past it, a check converts in full,
     * since the parser does not check the length of a string that is only decoded into its buffer.
     */
    private static final int LONGEST_CHECKED_VALUE = FACTORY.streamReadConstraints().getMaxStringLength();

    private final RecordConverter top;

    /** @throws IllegalArgumentException when JSON values cannot be matched against the schema, saying why */
    JsonToAvro(Schema record) {
        this(record, true);
    }

    /**
     * @param guessing whether records guess their fields' order ({@code RecordConverter.order}); without, every name
     *     is looked up, as before the guesses: the reference the tests hold the guesses to
     */
    JsonToAvro(Schema record, boolean guessing) {
        if (record.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("the value schema must be an Avro record, not " + record.getType()
                    .getName());
        }
        this.top = new RecordConverter(record, new HashSet<>(), guessing);
    }

    /**
     * Converts {@code json} and puts the value's fields into {@code row} from position {@code first} on, in the
     * schema's order.
     *
     * @throws RecordRejectedException when the value is not JSON or does not match the schema; the message names the
     *     field path, the type expected and what was found
     */
    void fill(byte[] json, IndexedRecord row, int first) throws RecordRejectedException {
        parse(json, row, first);
    }

    /**
     * Rejects {@code json} exactly when {@link #fill} would, with the same message, without building the row: strings
     * are decoded into the parser's buffer, not made into Java strings.
     */
    void check(byte[] json) throws RecordRejectedException {
        if (json.length > LONGEST_CHECKED_VALUE) {
            parse(json, new GenericData.Record(top.schema), 0);
        } else {
            parse(json, null, 0);
        }
    }

    /** Converts into {@code row}, or only checks when {@code row} is null. */
    private void parse(byte[] json, IndexedRecord row, int first) throws RecordRejectedException {
        try (JsonParser p = FACTORY.createParser(json)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new RecordRejectedException("the value is not JSON: it is empty");
            }
            if (t != JsonToken.START_OBJECT) {
                throw new Mismatch(top.expected(), found(p, t));
            }
            top.fields(p, row, first);
            if (p.nextToken() != null) {
                throw new RecordRejectedException("the value is not JSON: unexpected content after the JSON document at "
                        + JsonErrors.location(p));
            }
        } catch (Mismatch m) {
            throw new RecordRejectedException("the value does not match the schema: " + m.describe());
        } catch (JsonProcessingException e) {
            throw new RecordRejectedException("the value is not JSON: " + JsonErrors.describe(e), e);
        } catch (IOException e) {
            throw new RecordRejectedException("the value is not JSON: " + e.getMessage(), e);
        }
    }

    /**
     * A value that does not fit; the field path is built while the conversion unwinds. Without a stack trace: unions
     * try their branches by catching it.
     */
    private static final class Mismatch extends Exception {
        private static final long serialVersionUID = 1L;
        private final List<String> path = new ArrayList<>(4); // innermost first
        private final String problem;

        Mismatch(String expected, String found) {
            this(": expected " + expected + ", found " + found);
        }

        private Mismatch(String problem) {
            super(problem, null, false, false);
            this.problem = problem;
        }

        static Mismatch of(String problem) {
            return new Mismatch(problem);
        }

        Mismatch in(String field) {
            path.add("." + field);
            return this;
        }

        Mismatch at(int index) {
            path.add("[" + index + "]");
            return this;
        }

        String describe() {
            if (path.isEmpty()) {
                return "the value" + problem;
            }
            StringBuilder b = new StringBuilder("field '");
            for (int i = path.size() - 1; i >= 0; i--) {
                b.append(path.get(i));
            }
            b.deleteCharAt(7); // the leading dot
            return b.append('\'').append(problem).toString();
        }
    }

    /** Reads the value at the parser's current token {@code t}, consuming it entirely (objects and arrays too). */
    private abstract static class Converter {
        private final Set<JsonToken> tokens;

        /** @param tokens the tokens a value of this type starts with */
        Converter(JsonToken... tokens) {
            this.tokens = Set.of(tokens);
        }

        abstract Object read(JsonParser p, JsonToken t) throws IOException, Mismatch;

        /** Throws what {@link #read} would, building nothing where it can. */
        void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            read(p, t);
        }

        /** What the schema expects, for messages: "long", "an array of string"... */
        abstract String expected();

        /** Whether a value starting with this token is this converter's to read (how unions pick a branch). */
        boolean accepts(JsonToken t) {
            return tokens.contains(t);
        }

        /** For unions: which branch an integer is tried on first (exact integer types before floating ones). */
        int integerRank() {
            return 9;
        }

        Mismatch mismatch(JsonParser p, JsonToken t) throws IOException {
            return new Mismatch(expected(), found(p, t));
        }
    }

    private static Converter converter(Schema s, Set<String> enclosing, boolean guessing) {
        LogicalType logical = s.getLogicalType();
        if (logical != null) {
            Converter c = logicalConverter(s, logical);
            if (c != null) {
                return c;
            }
        }
        return switch (s.getType()) {
            case NULL -> new Scalar("null", 9, JsonToken.VALUE_NULL) {
                @Override
                Object convert(JsonParser p, JsonToken t) {
                    return null;
                }
            };
            case BOOLEAN -> new Scalar("boolean", 9, JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE) {
                @Override
                Object convert(JsonParser p, JsonToken t) {
                    return t == JsonToken.VALUE_TRUE;
                }
            };
            case INT -> new Scalar("int", 0, JsonToken.VALUE_NUMBER_INT) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    if (p.getNumberType() != JsonParser.NumberType.INT) {
                        throw new Mismatch(expected(), found(p, t) + " (out of int range)");
                    }
                    return p.getIntValue();
                }
            };
            case LONG -> new Scalar("long", 1, JsonToken.VALUE_NUMBER_INT) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    return longValue(this, p, t);
                }
            };
            // a number beyond the type's range would be written as Infinity: another value, without a word
            case FLOAT -> new Scalar("float", 4, JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    float value = p.getFloatValue();
                    if (!Float.isFinite(value)) {
                        throw new Mismatch(expected(), found(p, t) + " (beyond a float's range)");
                    }
                    return value;
                }
            };
            case DOUBLE -> new Scalar("double", 3, JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    double value = p.getDoubleValue();
                    if (!Double.isFinite(value)) {
                        throw new Mismatch(expected(), found(p, t) + " (beyond a double's range)");
                    }
                    return value;
                }
            };
            case STRING -> new Scalar("string", 9, JsonToken.VALUE_STRING) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException {
                    return p.getText();
                }

                @Override
                void verify(JsonParser p, JsonToken t) throws IOException {
                    // decoded into the parser's buffer, with every check of getText (a skip would not refuse an
                    // encoded surrogate), but not made a String
                    p.getTextLength();
                }
            };
            case BYTES -> new Scalar("bytes (base64 text)", 9, JsonToken.VALUE_STRING) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    return ByteBuffer.wrap(base64(this, p, t));
                }
            };
            case FIXED -> new Scalar(s.getFixedSize() + " bytes (base64 text, fixed " + s.getName() + ")", 9,
                    JsonToken.VALUE_STRING) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    byte[] bytes = base64(this, p, t);
                    if (bytes.length != s.getFixedSize()) {
                        throw new Mismatch(expected(), found(p, t) + " (" + bytes.length + " bytes)");
                    }
                    return new GenericData.Fixed(s, bytes);
                }
            };
            case ENUM -> new Scalar("one of " + String.join(", ", s.getEnumSymbols()) + " (enum " + s.getName()
                    + ")", 9, JsonToken.VALUE_STRING) {
                @Override
                Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                    String symbol = p.getText();
                    if (!s.hasEnumSymbol(symbol)) {
                        throw mismatch(p, t);
                    }
                    return new GenericData.EnumSymbol(s, symbol);
                }
            };
            case ARRAY -> new ArrayConverter(converter(s.getElementType(), enclosing, guessing));
            case MAP -> new MapConverter(converter(s.getValueType(), enclosing, guessing));
            case RECORD -> new RecordConverter(s, enclosing, guessing);
            case UNION -> new UnionConverter(s, enclosing, guessing);
        };
    }

    /** The converter of a logical type, or null to treat the schema as its underlying type. */
    private static Converter logicalConverter(Schema s, LogicalType logical) {
        return switch (logical.getName()) {
            case "date" -> new Temporal("date (days since 1970-01-01, or yyyy-MM-dd text)", 0, false,
                    text -> Math.toIntExact(LocalDate.parse(text).toEpochDay()));
            case "time-millis" -> new Temporal("time-millis (milliseconds of the day, or HH:mm:ss[.fff] text)", 0,
                    false, text -> (int) (LocalTime.parse(text).toNanoOfDay() / 1_000_000));
            case "time-micros" -> new Temporal("time-micros (microseconds of the day, or HH:mm:ss[.ffffff] text)", 1,
                    true, text -> LocalTime.parse(text).toNanoOfDay() / 1_000);
            case "timestamp-millis" -> new Temporal("timestamp-millis (epoch milliseconds, or ISO-8601 date-time "
                    + "text with an offset)", 1, true, text -> OffsetDateTime.parse(text).toInstant().toEpochMilli());
            case "timestamp-micros" -> new Temporal("timestamp-micros (epoch microseconds, or ISO-8601 date-time "
                    + "text with an offset)", 1, true, text -> micros(OffsetDateTime.parse(text).toInstant()));
            case "local-timestamp-millis" -> new Temporal("local-timestamp-millis (milliseconds, or ISO-8601 local "
                    + "date-time text)", 1, true,
                    text -> LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli());
            case "local-timestamp-micros" -> new Temporal("local-timestamp-micros (microseconds, or ISO-8601 local "
                    + "date-time text)", 1, true, text -> micros(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC)));
            case "decimal" -> new DecimalConverter(s, (LogicalTypes.Decimal) logical);
            case "uuid" -> s.getType() != Schema.Type.STRING ? null
                    : new Scalar("uuid text", 9, JsonToken.VALUE_STRING) {
                        @Override
                        Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
                            String text = p.getText();
                            try {
                                if (text.length() == 36 && UUID.fromString(text) != null) {
                                    return text;
                                }
                            } catch (IllegalArgumentException e) {
                                // falls through to the mismatch
                            }
                            throw mismatch(p, t);
                        }
                    };
            default -> null; // unknown logical types are their underlying type, as Avro says
        };
    }

    private static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    private static long longValue(Converter c, JsonParser p, JsonToken t) throws IOException, Mismatch {
        JsonParser.NumberType type = p.getNumberType();
        if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
            throw new Mismatch(c.expected(), found(p, t) + " (out of long range)");
        }
        return p.getLongValue();
    }

    private static byte[] base64(Converter c, JsonParser p, JsonToken t) throws IOException, Mismatch {
        try {
            return Base64.getDecoder().decode(p.getText());
        } catch (IllegalArgumentException e) {
            throw new Mismatch(c.expected(), found(p, t) + " (not base64: " + e.getMessage() + ")");
        }
    }

    /** A value of one token: it does not move the parser, so a union can try the next branch on the same token. */
    private abstract static class Scalar extends Converter {
        private final String expected;
        private final int integerRank;

        Scalar(String expected, int integerRank, JsonToken... tokens) {
            super(tokens);
            this.expected = expected;
            this.integerRank = integerRank;
        }

        abstract Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch;

        /** What {@link #convert} checks of an accepted token; by default, converting it. */
        void verify(JsonParser p, JsonToken t) throws IOException, Mismatch {
            convert(p, t);
        }

        @Override
        final Object read(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            return convert(p, t);
        }

        @Override
        final void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            verify(p, t);
        }

        @Override
        final String expected() {
            return expected;
        }

        @Override
        final int integerRank() {
            return integerRank;
        }
    }

    @FunctionalInterface
    private interface TextForm {
        Object parse(String text);
    }

    /** A date or time: an integer as it is stored, or its text form. */
    private static final class Temporal extends Scalar {
        private final boolean wide;
        private final TextForm text;

        Temporal(String expected, int integerRank, boolean wide, TextForm text) {
            super(expected, integerRank, JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_STRING);
            this.wide = wide;
            this.text = text;
        }

        @Override
        Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (t == JsonToken.VALUE_STRING) {
                try {
                    return text.parse(p.getText());
                } catch (DateTimeParseException | ArithmeticException e) {
                    throw mismatch(p, t);
                }
            }
            if (wide) {
                return longValue(this, p, t);
            }
            if (p.getNumberType() != JsonParser.NumberType.INT) {
                throw new Mismatch(expected(), found(p, t) + " (out of int range)");
            }
            return p.getIntValue();
        }
    }

    private static final class DecimalConverter extends Scalar {
        private final Schema schema;
        private final int precision;
        private final int scale;

        DecimalConverter(Schema schema, LogicalTypes.Decimal decimal) {
            super("decimal(" + decimal.getPrecision() + "," + decimal.getScale() + ") (a number or numeric text)", 2,
                    JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT, JsonToken.VALUE_STRING);
            this.schema = schema;
            this.precision = decimal.getPrecision();
            this.scale = decimal.getScale();
        }

        @Override
        Object convert(JsonParser p, JsonToken t) throws IOException, Mismatch {
            BigDecimal value;
            try {
                value = t == JsonToken.VALUE_STRING ? new BigDecimal(p.getText()) : p.getDecimalValue();
            } catch (NumberFormatException e) {
                throw mismatch(p, t);
            }
            try {
                value = value.setScale(scale);
            } catch (ArithmeticException e) {
                throw new Mismatch(expected(), found(p, t) + " (more than " + scale + " decimal places)");
            }
            if (value.precision() > precision) {
                throw new Mismatch(expected(), found(p, t) + " (more than " + precision + " digits)");
            }
            byte[] unscaled = value.unscaledValue().toByteArray();
            if (schema.getType() == Schema.Type.BYTES) {
                return ByteBuffer.wrap(unscaled);
            }
            int size = schema.getFixedSize();
            if (unscaled.length > size) {
                throw new Mismatch(expected(), found(p, t) + " (does not fit in " + size + " bytes)");
            }
            byte[] fixed = new byte[size];
            byte sign = (byte) (value.signum() < 0 ? -1 : 0);
            for (int i = 0; i < size - unscaled.length; i++) {
                fixed[i] = sign;
            }
            System.arraycopy(unscaled, 0, fixed, size - unscaled.length, unscaled.length);
            return new GenericData.Fixed(schema, fixed);
        }
    }

    private static final class ArrayConverter extends Converter {
        private final Converter element;

        ArrayConverter(Converter element) {
            super(JsonToken.START_ARRAY);
            this.element = element;
        }

        @Override
        Object read(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            List<Object> list = new ArrayList<>();
            JsonToken next;
            while ((next = p.nextToken()) != JsonToken.END_ARRAY) {
                try {
                    list.add(element.read(p, next));
                } catch (Mismatch m) {
                    throw m.at(list.size());
                }
            }
            return list;
        }

        @Override
        void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            JsonToken next;
            for (int i = 0; (next = p.nextToken()) != JsonToken.END_ARRAY; i++) {
                try {
                    element.check(p, next);
                } catch (Mismatch m) {
                    throw m.at(i);
                }
            }
        }

        @Override
        String expected() {
            return "an array of " + element.expected();
        }
    }

    private static final class MapConverter extends Converter {
        private final Converter value;

        MapConverter(Converter value) {
            super(JsonToken.START_OBJECT);
            this.value = value;
        }

        @Override
        Object read(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            Map<String, Object> map = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                try {
                    map.put(key, value.read(p, p.nextToken()));
                } catch (Mismatch m) {
                    throw m.in(key);
                }
            }
            return map;
        }

        @Override
        void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                try {
                    value.check(p, p.nextToken());
                } catch (Mismatch m) {
                    throw m.in(key);
                }
            }
        }

        @Override
        String expected() {
            return "an object (map of " + value.expected() + ")";
        }
    }

    private static final class RecordConverter extends Converter {
        private static final Object NO_DEFAULT = new Object();
        private static final int NO_GUESS = -1;

        private final Schema schema;
        private final String[] names;
        private final Converter[] fields;
        private final Object[] defaults;
        private final boolean[] nullable;
        private final Map<String, Integer> positions = new HashMap<>();
        /** Each field's name as the parser compares it with the input's bytes, unescaped. */
        private final SerializedString[] quoted;
        /**
         * The field expected after field {@code i} at {@code [i]} ({@link #NO_GUESS} for the object's end), and the
         * first at {@code [fields.length]}; learnt from the last value that broke the order. Values of one topic keep
         * one order, so the input's bytes are compared with the expected name instead of hashing it into the parser's
         * symbol table and looking it up here (the two were 10% of a Parquet archive's CPU samples on the benchmark's
         * log lines).
         */
        private final int[] order;
        /** False only for the tests' reference: {@link #order} stays without guesses. */
        private final boolean guessing;

        RecordConverter(Schema schema, Set<String> enclosing, boolean guessing) {
            super(JsonToken.START_OBJECT);
            if (!enclosing.add(schema.getFullName())) {
                throw new IllegalArgumentException("the record " + schema.getFullName() + " contains itself; recursive "
                        + "schemas are not supported");
            }
            this.schema = schema;
            List<Schema.Field> list = schema.getFields();
            this.names = new String[list.size()];
            this.fields = new Converter[list.size()];
            this.defaults = new Object[list.size()];
            this.nullable = new boolean[list.size()];
            this.quoted = new SerializedString[list.size()];
            this.order = new int[list.size() + 1];
            for (int i = 0; i < list.size(); i++) {
                Schema.Field f = list.get(i);
                names[i] = f.name();
                try {
                    fields[i] = converter(f.schema(), enclosing, guessing);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("field " + schema.getName() + "." + f.name() + ": "
                            + e.getMessage(), e);
                }
                defaults[i] = f.hasDefaultValue() ? GenericData.get().getDefaultValue(f) : NO_DEFAULT;
                nullable[i] = f.schema().isNullable();
                positions.put(f.name(), i);
                quoted[i] = new SerializedString(f.name());
                order[i] = guessing && i + 1 < list.size() ? i + 1 : NO_GUESS;
            }
            order[list.size()] = guessing && !list.isEmpty() ? 0 : NO_GUESS;
            this.guessing = guessing;
            enclosing.remove(schema.getFullName());
        }

        @Override
        Object read(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            GenericData.Record record = new GenericData.Record(schema);
            fields(p, record, 0);
            return record;
        }

        @Override
        void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            if (!accepts(t)) {
                throw mismatch(p, t);
            }
            fields(p, null, 0);
        }

        /**
         * Reads the members of the object whose start the parser is on, into {@code target} from {@code first}; with no
         * target, only checks them.
         */
        void fields(JsonParser p, IndexedRecord target, int first) throws IOException, Mismatch {
            boolean[] seen = new boolean[fields.length];
            int previous = fields.length;
            while (true) {
                // read once: another lane may rewrite the slot, and the call and the fallback must agree on the guess
                int guess = order[previous];
                int i;
                if (guess != NO_GUESS && p.nextFieldName(quoted[guess])) {
                    i = guess;
                } else {
                    JsonToken t = guess == NO_GUESS ? p.nextToken() : p.currentToken();
                    if (t != JsonToken.FIELD_NAME) {
                        if (guess != NO_GUESS) {
                            order[previous] = NO_GUESS;
                        }
                        break;
                    }
                    Integer at = positions.get(p.currentName());
                    if (at == null) {
                        throw Mismatch.of(" is not in the schema (record " + schema.getName() + " has "
                                + String.join(", ", names) + ")").in(p.currentName());
                    }
                    i = at;
                    if (guessing) {
                        order[previous] = i;
                    }
                }
                previous = i;
                String name = names[i];
                if (seen[i]) {
                    throw Mismatch.of(" appears twice in the object").in(name);
                }
                seen[i] = true;
                try {
                    if (target == null) {
                        fields[i].check(p, p.nextToken());
                    } else {
                        target.put(first + i, fields[i].read(p, p.nextToken()));
                    }
                } catch (Mismatch m) {
                    throw m.in(name);
                }
            }
            for (int i = 0; i < fields.length; i++) {
                if (!seen[i]) {
                    if (defaults[i] != NO_DEFAULT) {
                        if (target != null) {
                            target.put(first + i, defaults[i]);
                        }
                    } else if (!nullable[i]) {
                        throw Mismatch.of(" is missing; expected " + fields[i].expected()
                                + " (the field is not nullable and has no default)").in(names[i]);
                    }
                }
            }
        }

        @Override
        String expected() {
            return "an object (record " + schema.getName() + ")";
        }
    }

    private static final class UnionConverter extends Converter {
        private final List<Converter> branches = new ArrayList<>();
        private final Map<JsonToken, List<Converter>> byToken = new HashMap<>();

        UnionConverter(Schema union, Set<String> enclosing, boolean guessing) {
            for (Schema branch : union.getTypes()) {
                branches.add(converter(branch, enclosing, guessing));
            }
            for (JsonToken t : List.of(JsonToken.VALUE_NULL, JsonToken.VALUE_TRUE, JsonToken.VALUE_FALSE,
                    JsonToken.VALUE_NUMBER_INT, JsonToken.VALUE_NUMBER_FLOAT, JsonToken.VALUE_STRING,
                    JsonToken.START_OBJECT, JsonToken.START_ARRAY)) {
                List<Converter> candidates = new ArrayList<>();
                for (Converter c : branches) {
                    if (c.accepts(t)) {
                        candidates.add(c);
                    }
                }
                if (t.isNumeric()) {
                    candidates.sort(Comparator.comparingInt(Converter::integerRank)); // stable: schema order otherwise
                }
                if (t.isStructStart() && candidates.size() > 1) {
                    throw new IllegalArgumentException("the union " + union + " has several branches that a JSON "
                            + (t == JsonToken.START_ARRAY ? "array" : "object") + " could be; JSON cannot tell them "
                            + "apart");
                }
                byToken.put(t, List.copyOf(candidates));
            }
        }

        @Override
        Object read(JsonParser p, JsonToken t) throws IOException, Mismatch {
            List<Converter> candidates = byToken.getOrDefault(t, List.of());
            if (candidates.size() == 1) {
                return candidates.get(0).read(p, t); // its own message is the most precise
            }
            for (Converter c : candidates) {
                try {
                    return c.read(p, t);
                } catch (Mismatch tryTheNext) {
                    // scalars leave the parser where it was
                }
            }
            throw mismatch(p, t);
        }

        @Override
        void check(JsonParser p, JsonToken t) throws IOException, Mismatch {
            List<Converter> candidates = byToken.getOrDefault(t, List.of());
            if (candidates.size() == 1) {
                candidates.get(0).check(p, t);
                return;
            }
            for (Converter c : candidates) {
                try {
                    c.check(p, t);
                    return;
                } catch (Mismatch tryTheNext) {
                    // as in read: scalars leave the parser where it was
                }
            }
            throw mismatch(p, t);
        }

        @Override
        String expected() {
            return branches.stream().map(Converter::expected).collect(Collectors.joining(" or "));
        }

        @Override
        boolean accepts(JsonToken t) {
            return !byToken.getOrDefault(t, List.of()).isEmpty();
        }
    }

    /** What a JSON value is, for messages: {@code string "abc"}, {@code number 1.5}, {@code an object}. */
    private static String found(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_STRING -> {
                String text = p.getText();
                yield text.length() <= SHOWN_CHARS ? "string \"" + text + "\""
                        : "string \"" + text.substring(0, SHOWN_CHARS) + "...\" (" + text.length() + " chars)";
            }
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number " + p.getText();
            case VALUE_TRUE, VALUE_FALSE -> "boolean " + p.getText();
            case VALUE_NULL -> "null";
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            default -> t.toString();
        };
    }
}
