package io.sluice.storage.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.regex.Pattern;

/**
 * Jackson's parse errors in the words a dead letter's reason and a log line carry: its own message, where nested
 * locations name a redacted source ({@code (start marker at [Source: REDACTED (`StreamReadFeature...` disabled);
 * line: 1, column: 1])}) that only says the source is not shown, and the line and column where it stopped.
 *
 * <p>Stateless.
 */
public final class JsonErrors {

    private static final Pattern SOURCE = Pattern.compile("\\[Source: [^;]*; (line: \\d+, column: \\d+)\\]");

    private JsonErrors() {
    }

    /** What went wrong and where, e.g. {@code Unexpected character ('x' (code 120)): ... at line 1, column 2}. */
    public static String describe(JsonProcessingException e) {
        return SOURCE.matcher(String.valueOf(e.getOriginalMessage())).replaceAll("$1") + " at "
                + location(e.getProcessor() instanceof JsonParser parser ? parser : null);
    }

    /** Where {@code parser} stands, as a person counts: {@code line 1, column 7}; "?" without a parser. */
    public static String location(JsonParser parser) {
        return parser == null ? "?" : "line " + parser.currentLocation().getLineNr() + ", column "
                + parser.currentLocation().getColumnNr();
    }
}
