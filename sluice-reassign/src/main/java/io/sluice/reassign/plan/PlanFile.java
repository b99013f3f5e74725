package io.sluice.reassign.plan;

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

    public static ReassignmentPlan read(Path file) {
        try {
            return JSON.readValue(file.toFile(), ReassignmentPlan.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the plan " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code value} as JSON on one line: a journal line, a line of a command's JSON output. */
    public static String jsonLine(Object value) {
        try {
            return JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not writable as JSON: " + value, e);
        }
    }

    /** The mapper, for the journal's lines that hold a plan. */
    public static ObjectMapper json() {
        return JSON;
    }
}
