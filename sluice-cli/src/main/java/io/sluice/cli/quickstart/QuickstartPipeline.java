package io.sluice.cli.quickstart;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the quick start's pipeline file: what a user would write to archive the clickstream, run through the same
 * loader as {@code sluice run}, and left in the folder as an example.
 *
 * <p>Stateless.
 */
public final class QuickstartPipeline {

    private QuickstartPipeline() {
    }

    /** Writes {@code pipeline.yaml} (and the schema when the format needs one) into {@code folder}. */
    public static Path write(Path folder, String bootstrapServers, String topic, QuickstartFormat format)
            throws IOException {
        StringBuilder yaml = new StringBuilder()
                .append("# The quick start's pipeline: the clickstream archived by date, hour and event type.\n")
                .append("source:\n")
                .append("  bootstrap-servers: ").append(quote(bootstrapServers)).append('\n')
                .append("  topics: [").append(quote(topic)).append("]\n")
                .append("  group: sluice-quickstart\n")
                .append("processing:\n")
                .append("  concurrency: 4\n")
                .append("  memory-budget: 128MiB\n")
                .append("sink:\n")
                .append("  location: ").append(quote(QuickstartFolder.archive(folder).toString())).append('\n')
                .append("  template: \"{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/type={value.event_type}/\"\n")
                .append("  time-zone: UTC\n")
                .append("  format: ").append(format.format).append('\n')
                .append("  codec: ").append(format.codec).append('\n');
        if (format.schemaResource != null) {
            Path schema = folder.resolve(format.schemaResource);
            try (InputStream in = QuickstartPipeline.class.getResourceAsStream(format.schemaResource)) {
                if (in == null) {
                    throw new IOException("the schema " + format.schemaResource + " is missing from the build");
                }
                Files.copy(in, schema, StandardCopyOption.REPLACE_EXISTING);
            }
            yaml.append("  schema: ").append(quote(schema.getFileName().toString())).append('\n');
        }
        yaml.append("  delivery: exactly-once\n")
                .append("  rolling:\n")
                .append("    max-open-files: 64\n");
        Path file = folder.resolve("pipeline.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    /** A YAML double-quoted scalar, with {@code $} escaped from variable substitution. */
    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "$$") + "\"";
    }
}
