package io.sluice.reassign.plan;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A plan as an indented JSON file, written whole or not at all (a temporary file renamed over it).
 *
 * <p>Threading: stateless; the mapper is thread-safe.
 */
public final class PlanFile {

    static final ObjectMapper JSON = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private PlanFile() {
    }

    public static void write(Path file, ReassignmentPlan plan) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            JSON.writeValue(temporary.toFile(), plan);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the plan " + file, e);
        }
    }

    /**
     * Reads a plan {@link #write} wrote.
     *
     * @throws IllegalArgumentException when the file is missing, is not JSON, or holds no plan, saying which and
     *     where in words (Jackson's own messages name Java classes)
     * @throws UncheckedIOException when the file cannot be read
     */
    public static ReassignmentPlan read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("there is no plan " + file + (Files.exists(file) ? " (it is a folder)"
                    : "") + "; write one with ./sluice reassign plan ... --output " + file);
        }
        try {
            return JSON.readValue(file.toFile(), ReassignmentPlan.class);
        } catch (JsonProcessingException e) {
            String what = String.valueOf(e.getOriginalMessage());
            // a cut file meets its end in the parser or in the binding, as either exception: said once, the same way
            if (what.contains("end-of-input")) {
                throw new IllegalArgumentException("the plan " + file + " ends early" + where(e) + ": it was cut "
                        + "short; plan again", e);
            }
            if (e instanceof JsonParseException) {
                int marker = what.indexOf(" (start marker at ");
                throw new IllegalArgumentException("the plan " + file + " is not JSON: " + (marker < 0 ? what
                        : what.substring(0, marker)) + where(e), e);
            }
            throw new IllegalArgumentException("the plan " + file + " does not hold a plan as ./sluice reassign plan "
                    + "writes it" + where(e) + "; plan again rather than edit one by hand", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the plan " + file + ": " + e.getMessage(), e);
        }
    }

    private static String where(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }

    /** {@code value} as JSON on one line: a journal line, a line of a command's JSON output. */
    public static String jsonLine(Object value) {
        try {
            return JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not writable as JSON: " + value, e);
        }
    }

    /** The mapper, for the journal's lines that hold a plan. */
    public static ObjectMapper json() {
        return JSON;
    }
}
