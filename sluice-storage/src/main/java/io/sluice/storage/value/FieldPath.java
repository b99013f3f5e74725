package io.sluice.storage.value;

import java.util.List;

/**
 * A field of the value that the layout reads: {@code user.country} is the names {@code [user, country]}. The time
 * field is marked, because the encodings read it as an instant rather than as text, and check its type for that.
 *
 * <p>Immutable.
 */
public record FieldPath(List<String> names, boolean time) {

    public FieldPath {
        names = List.copyOf(names);
    }

    /** @param dotted names joined by dots, e.g. {@code user.country} */
    public static FieldPath of(String dotted, boolean time) {
        return new FieldPath(List.of(dotted.split("\\.", -1)), time);
    }

    /** The path as the template and the pipeline file write it, e.g. {@code user.country}. */
    public String dotted() {
        return String.join(".", names);
    }

    /** How the user wrote it: {@code {value.user.country}} or {@code the time field user.time}. */
    public String describe() {
        return time ? "the time field " + dotted() : "{value." + dotted() + "}";
    }
}
