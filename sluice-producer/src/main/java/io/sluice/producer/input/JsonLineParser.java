package io.sluice.producer.input;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON line sent as it is (its exact bytes), after checking it is JSON; with a key field, the key is that top-level
 * field's value. A line without the field fails rather than going out without a key.
 */
final class JsonLineParser implements RecordParser {

    private final String keyField;

    JsonLineParser(String keyField) {
        this.keyField = keyField;
    }

    @Override
    public InputRecord parse(InputLine line) throws BadInputException {
        JsonNode node = JsonText.parse(line.bytes());
        if (keyField == null) {
            return InputRecord.of(line.origin(), null, line.bytes());
        }
        if (!node.isObject()) {
            throw new BadInputException("expected a JSON object with the key field \"" + keyField + "\", found "
                    + JsonText.kind(node));
        }
        JsonNode key = node.get(keyField);
        if (key == null || key.isNull()) {
            throw new BadInputException("field \"" + keyField + "\": expected the key, found "
                    + (key == null ? "no such field" : "null"));
        }
        return InputRecord.of(line.origin(), JsonText.bytes(key), line.bytes());
    }
}
