package io.sluice.storage.value;

import java.time.Instant;

/**
 * The fields of one record's value that the layout asked for, decoded once per record by a {@link ValueReader}, and
 * read by position: the i-th field is the i-th {@link FieldPath} the reader was made for.
 *
 * <p>Threading: confined to the thread that decoded the value.
 */
public interface ValueFields {

    /** The scalar at the i-th path as text, or null when it is absent or null. */
    String text(int i);

    /**
     * The instant at the i-th path (a time field), or null when it is absent or null.
     *
     * @throws UnreadableFieldException when the field holds something that is not a time, saying what it holds
     */
    Instant time(int i) throws UnreadableFieldException;

    /**
     * Why the value has none of the fields whatever the paths, in words for a person ({@code "the value is an array in
     * JSON, not an object"}), or null when fields may be in it: said beside "missing", which alone reads as a
     * misspelt field.
     */
    default String whyNoFields() {
        return null;
    }
}
