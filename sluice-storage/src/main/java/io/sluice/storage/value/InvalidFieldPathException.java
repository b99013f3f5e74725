package io.sluice.storage.value;

/**
 * A field the layout wants that values of the encoding can never have, or not as a scalar (or, for the time field,
 * not as a time): found when the sink is built, long before a record arrives. The message names the field and what
 * the schema has instead.
 */
public final class InvalidFieldPathException extends IllegalArgumentException {

    private final transient FieldPath path;

    public InvalidFieldPathException(FieldPath path, String message) {
        super(message);
        this.path = path;
    }

    /** The field at fault, so that a configuration error can point at the template or at the time field. */
    public FieldPath path() {
        return path;
    }
}
