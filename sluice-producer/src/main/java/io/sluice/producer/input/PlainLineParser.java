package io.sluice.producer.input;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A plain line as the value, or split at the first key delimiter into key and value. A line without the delimiter
 * fails: sending it without a key would put it on another partition than its kin, silently.
 */
final class PlainLineParser implements RecordParser {

    private final byte[] delimiter;

    PlainLineParser(String keyDelimiter) {
        if (keyDelimiter != null && keyDelimiter.isEmpty()) {
            throw new IllegalArgumentException("the key delimiter cannot be empty");
        }
        this.delimiter = keyDelimiter == null ? null : keyDelimiter.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public InputRecord parse(InputLine line) throws BadInputException {
        byte[] bytes = line.bytes();
        if (delimiter == null) {
            return InputRecord.of(line.origin(), null, bytes);
        }
        int at = indexOf(bytes, delimiter);
        if (at < 0) {
            throw new BadInputException("expected a key, then '" + new String(delimiter, StandardCharsets.UTF_8)
                    + "', then the value; the line has no '" + new String(delimiter, StandardCharsets.UTF_8) + "'");
        }
        return InputRecord.of(line.origin(), Arrays.copyOfRange(bytes, 0, at),
                Arrays.copyOfRange(bytes, at + delimiter.length, bytes.length));
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        outer:
        for (int i = 0; i + part.length <= bytes.length; i++) {
            for (int j = 0; j < part.length; j++) {
                if (bytes[i + j] != part[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
