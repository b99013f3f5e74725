package io.sluice.producer.input;

/** What each input line is. */
public enum InputFormat {
    /** Any text: the line is the value; a key delimiter splits off a key. */
    LINES,
    /** One JSON value per line (JSON Lines), sent as it is; a key field names the key. Lines that are not JSON fail. */
    JSON,
    /** One JSON object per line that says everything: key, value, headers, partition, timestamp. */
    ENVELOPE;

    /**
     * The parser for this format.
     *
     * @param keyField     for {@link #JSON}: the top-level field whose value is the key, or null
     * @param keyDelimiter for {@link #LINES}: what separates the key from the value, or null
     * @throws IllegalArgumentException when the key option does not fit this format
     */
    public RecordParser parser(String keyField, String keyDelimiter) {
        if (keyField != null && this != JSON) {
            throw new IllegalArgumentException("a key field needs JSON lines (--format json); an envelope names its "
                    + "key itself");
        }
        if (keyDelimiter != null && this != LINES) {
            throw new IllegalArgumentException("a key delimiter needs plain lines (--format lines)");
        }
        return switch (this) {
            case LINES -> new PlainLineParser(keyDelimiter);
            case JSON -> new JsonLineParser(keyField);
            case ENVELOPE -> new EnvelopeParser();
        };
    }
}
