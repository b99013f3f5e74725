package io.sluice.cli.produce;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.InputLine;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.RecordParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * {@code --schema}: each record's value, a JSON value, is checked against an Avro schema and sent as Avro binary,
 * optionally in the Confluent framing (a zero byte, the schema ID in four bytes, then the Avro bytes). A value that does
 * not fit fails its line with the field's path and what the schema expected, e.g.
 * {@code field "order.amount": expected a double, found a string}. Fields missing from the JSON take the schema's
 * default; a field the schema does not have fails (it would be dropped without a word).
 *
 * <p>Immutable; wraps the parser of the input format.
 */
final class AvroValues implements RecordParser {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final RecordParser format;
    private final Schema schema;
    /** The Confluent framing's schema ID, or null for plain Avro binary. */
    private final Integer schemaId;

    private AvroValues(RecordParser format, Schema schema, Integer schemaId) {
        this.format = format;
        this.schema = schema;
        this.schemaId = schemaId;
    }

    /** @throws IllegalArgumentException when the schema file cannot be read or is not an Avro schema */
    static AvroValues over(RecordParser format, Path schemaFile, Integer schemaId) {
        try {
            return new AvroValues(format, new Schema.Parser().parse(Files.readString(schemaFile)), schemaId);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("there is no schema file " + schemaFile, e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the schema " + schemaFile + ": " + e.getMessage(), e);
        } catch (SchemaParseException e) {
            throw new IllegalArgumentException(schemaFile + " is not an Avro schema: " + e.getMessage(), e);
        }
    }

    @Override
    public InputRecord parse(InputLine line) throws BadInputException {
        InputRecord record = format.parse(line);
        if (record.value() == null) {
            return record; // a tombstone has no value to check
        }
        JsonNode json;
        try {
            json = MAPPER.readTree(record.value());
        } catch (JsonProcessingException e) {
            throw new BadInputException("the value is not JSON, which --schema needs: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object datum = convert(schema, json, "");
        return new InputRecord(record.origin(), record.key(), encode(datum), record.headers(), record.partition(),
                record.timestamp());
    }

    private byte[] encode(Object datum) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (schemaId != null) {
            out.write(0);
            out.writeBytes(ByteBuffer.allocate(4).putInt(schemaId).array());
        }
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new GenericDatumWriter<>(schema).write(datum, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** {@code json} as the Avro datum of {@code type}; {@code path} names it in errors ("" for the value itself). */
    private static Object convert(Schema type, JsonNode json, String path) throws BadInputException {
        switch (type.getType()) {
            case NULL:
                if (json.isNull()) {
                    return null;
                }
                throw mismatch(path, "null", json);
            case BOOLEAN:
                if (json.isBoolean()) {
                    return json.booleanValue();
                }
                throw mismatch(path, "a boolean", json);
            case INT:
                if (json.isIntegralNumber() && json.canConvertToInt()) {
                    return json.intValue();
                }
                throw mismatch(path, "an int", json);
            case LONG:
                if (json.isIntegralNumber() && json.canConvertToLong()) {
                    return json.longValue();
                }
                throw mismatch(path, "a long", json);
            case FLOAT:
                // a number beyond a float's range would become Infinity: another value, without a word
                if (json.isNumber() && Float.isFinite(json.floatValue())) {
                    return json.floatValue();
                }
                throw mismatch(path, "a float (at most " + Float.MAX_VALUE + " either way)", json);
            case DOUBLE:
                // as for a float: 1e400 became Infinity (a new user's run)
                if (json.isNumber() && Double.isFinite(json.doubleValue())) {
                    return json.doubleValue();
                }
                throw mismatch(path, json.isNumber() ? "a double (at most " + Double.MAX_VALUE + " either way)"
                        : "a double", json);
            case STRING:
                if (json.isTextual()) {
                    return json.textValue();
                }
                throw mismatch(path, "a string", json);
            case BYTES:
                // Avro's JSON form of bytes: one character per byte, U+0000 to U+00FF; ISO-8859-1 would turn any
                // other character into '?', another value without a word
                if (json.isTextual() && json.textValue().chars().allMatch(c -> c <= 0xFF)) {
                    return ByteBuffer.wrap(json.textValue().getBytes(StandardCharsets.ISO_8859_1));
                }
                throw mismatch(path, "bytes (a string of characters U+0000 to U+00FF, one per byte)", json);
            case ENUM:
                if (json.isTextual() && type.getEnumSymbols().contains(json.textValue())) {
                    return new GenericData.EnumSymbol(type, json.textValue());
                }
                throw mismatch(path, "one of " + type.getEnumSymbols(), json);
            case ARRAY:
                return array(type, json, path);
            case MAP:
                return map(type, json, path);
            case UNION:
                return union(type, json, path);
            case RECORD:
                return record(type, json, path);
            default:
                throw new BadInputException(where(path) + "the schema's type " + type.getType() + " is not supported "
                        + "by --schema");
        }
    }

    private static Object array(Schema type, JsonNode json, String path) throws BadInputException {
        if (!json.isArray()) {
            throw mismatch(path, "an array", json);
        }
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            items.add(convert(type.getElementType(), json.get(i), path + "[" + i + "]"));
        }
        return new GenericData.Array<>(type, items);
    }

    private static Object map(Schema type, JsonNode json, String path) throws BadInputException {
        if (!json.isObject()) {
            throw mismatch(path, "a map (an object)", json);
        }
        Map<String, Object> entries = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            entries.put(e.getKey(), convert(type.getValueType(), e.getValue(), child(path, e.getKey())));
        }
        return entries;
    }

    /**
     * The first branch the value fits, in the schema's order ({@code ["null","string"]}: null, else a string). When
     * the value is not null and only one branch is not null (an optional field), that branch's own error is the
     * answer: "field "customer.age": expected an int" names the field that is wrong, where "field "customer":
     * expected one of [null, Customer]" would leave the user to find it.
     */
    private static Object union(Schema type, JsonNode json, String path) throws BadInputException {
        List<String> tried = new ArrayList<>();
        List<BadInputException> errors = new ArrayList<>();
        for (Schema branch : type.getTypes()) {
            try {
                return convert(branch, json, path);
            } catch (BadInputException e) {
                tried.add(branch.getType() == Schema.Type.RECORD ? branch.getName() : branch.getType().getName());
                if (branch.getType() != Schema.Type.NULL) {
                    errors.add(e);
                }
            }
        }
        if (!json.isNull() && errors.size() == 1) {
            throw errors.get(0);
        }
        throw mismatch(path, "one of " + tried, json);
    }

    private static Object record(Schema type, JsonNode json, String path) throws BadInputException {
        if (!json.isObject()) {
            throw mismatch(path, "an object (record " + type.getName() + ")", json);
        }
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (type.getField(name) == null) {
                throw new BadInputException(where(child(path, name)) + "not in the schema (record " + type.getName()
                        + " has " + type.getFields().stream().map(Schema.Field::name).toList() + ")");
            }
        }
        GenericData.Record record = new GenericData.Record(type);
        for (Schema.Field field : type.getFields()) {
            JsonNode value = json.get(field.name());
            if (value == null) {
                if (!field.hasDefaultValue()) {
                    throw new BadInputException(where(child(path, field.name())) + "missing, and the schema gives no "
                            + "default");
                }
                record.put(field.pos(), GenericData.get().getDefaultValue(field));
            } else {
                record.put(field.pos(), convert(field.schema(), value, child(path, field.name())));
            }
        }
        return record;
    }

    private static BadInputException mismatch(String path, String expected, JsonNode found) {
        String kind = switch (found.getNodeType()) {
            case STRING -> "a string";
            // Jackson reads a number beyond a double's range as Infinity, which the line never said
            case NUMBER -> found.isDouble() && !Double.isFinite(found.doubleValue()) ? "a number beyond a double's "
                    + "range" : "the number " + found;
            case BOOLEAN -> "a boolean";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> found.getNodeType().toString();
        };
        return new BadInputException(where(path) + "expected " + expected + ", found " + kind);
    }

    private static String where(String path) {
        return path.isEmpty() ? "the value: " : "field \"" + path + "\": ";
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
