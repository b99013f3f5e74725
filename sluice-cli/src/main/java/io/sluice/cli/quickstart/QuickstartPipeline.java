package io.sluice.cli.quickstart;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes the quick start's pipeline file: what a user would write to archive the clickstream as Parquet + zstd with
 * the events' Avro schema, run through the same loader as {@code sluice run}, and left in the folder as an example.
 * Also the DuckDB query the summary offers over the files.
 *
 * <p>Stateless.
 */
public final class QuickstartPipeline {

    /** The Avro schema of the events, a resource next to this class, copied next to the pipeline file. */
    private static final String SCHEMA = "clickstream.avsc";

    private QuickstartPipeline() {
    }

    /** Writes {@code pipeline.yaml} and the events' schema into {@code folder}. */
    public static Path write(Path folder, String bootstrapServers, String topic) throws IOException {
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
                .append("  format: parquet\n")
                .append("  codec: zstd\n")
                .append("  schema: ").append(SCHEMA).append("   # the events' fields become the columns\n")
                .append("  delivery: exactly-once\n")
                .append("  rolling:\n")
                .append("    max-open-files: 64\n");
        try (InputStream in = QuickstartPipeline.class.getResourceAsStream(SCHEMA)) {
            if (in == null) {
                throw new IOException("the schema " + SCHEMA + " is missing from the build");
            }
            Files.copy(in, folder.resolve(SCHEMA), StandardCopyOption.REPLACE_EXISTING);
        }
        Path file = folder.resolve("pipeline.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    /** Revenue per day over the purchase folders of the topic's archive {@code topicFolder}, for DuckDB. */
    public static String revenueQuery(Path topicFolder) {
        return "SELECT dt, count(*) AS purchases, round(sum(price * quantity), 2) AS revenue FROM read_parquet('"
                + topicFolder + "/*/*/type=purchase/*.parquet', hive_partitioning = true) GROUP BY dt ORDER BY dt";
    }

    /** A YAML double-quoted scalar, with {@code $} escaped from variable substitution. */
    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "$$") + "\"";
    }
}
