package io.sluice.storage.value;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Times written as text, whatever the encoding around them: epoch milliseconds, or ISO-8601 with an offset. */
public final class ValueTimes {

    private ValueTimes() {
    }

    /** @throws UnreadableFieldException saying what the text is and what it should be */
    public static Instant parse(String text) throws UnreadableFieldException {
        try {
            return digits(text) ? Instant.ofEpochMilli(Long.parseLong(text)) : OffsetDateTime.parse(text).toInstant();
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new UnreadableFieldException("is '" + text + "', neither epoch milliseconds nor an ISO-8601 "
                    + "date-time with an offset");
        }
    }

    private static boolean digits(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return !text.isEmpty();
    }
}
