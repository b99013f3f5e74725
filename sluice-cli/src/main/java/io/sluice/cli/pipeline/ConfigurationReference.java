package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.KeyCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders {@code docs/configuration.md} from {@link PipelineKeys} and the format and storage registries, so the
 * reference cannot drift from the code ({@code ConfigurationReferenceTest} fails when the file is stale).
 *
 * <p>Stateless.
 */
public final class ConfigurationReference {

    private ConfigurationReference() {
    }

    public static String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# Pipeline files\n\n")
                .append("<!-- Generated from io.sluice.cli.pipeline.PipelineKeys by `./sluice docs > "
                        + "docs/configuration.md`; edit the code, not this file. -->\n\n")
                .append("A pipeline is a YAML file with the sections `source` (the Kafka topics), `processing` and "
                        + "`metrics` (both optional) and `sink` (where the files go). `sluice validate FILE` checks "
                        + "one, `sluice run FILE` runs it, `sluice verify FILE` audits its archive and `sluice lag "
                        + "FILE` shows its group's lag; [examples/](../examples) holds working ones.\n\n")
                .append("- **Variables**: `${NAME}` and `${NAME:-default}` in a value are replaced with environment "
                        + "variables (the default applies when the variable is unset or empty); `$$` is a literal "
                        + "`$`. Substitution happens in parsed values, so errors still point at the file's line and "
                        + "column.\n")
                .append("- **Sizes**: bytes (`1048576`), powers of 1024 (`KiB`, `MiB`, `GiB`, `TiB`: `128MiB`) or "
                        + "of 1000 (`KB`, `MB`, `GB`, `TB`: `100MB`).\n")
                .append("- **Durations**: `500ms`, `10s`, `5m`, `1h30m`, `2d`, or ISO-8601 (`PT10S`).\n")
                .append("- **Secrets**: keys of type *secret* are never printed in logs, errors or help. Give them "
                        + "through variables (`password: ${KAFKA_PASSWORD}`) to keep them out of the file.\n")
                .append("- **Order**: each partition is archived in offset order, by one writer at a time; "
                        + "`processing.concurrency` is how many partitions are written at once.\n");
        tables(b, PipelineKeys.CATALOG);
        formats(b);
        storage(b);
        return b.toString();
    }

    /** The reference of mirror files, {@code docs/mirror-configuration.md}. */
    public static String mirrorMarkdown() {
        return sideReference("Mirror", "MirrorKeys", "mirror", "A mirror is a YAML file with the sections `source` "
                + "(the cluster and topics to copy), `target` (the cluster to copy to), `mirror` (its name, delivery "
                + "and naming) and `metrics` (optional). `sluice validate FILE` checks one, `sluice mirror FILE` runs "
                + "it; how it works: [mirror.md](mirror.md).", MirrorKeys.CATALOG);
    }

    /** The reference of merge files, {@code docs/merge-configuration.md}. */
    public static String mergeMarkdown() {
        return sideReference("Merge", "MergeKeys", "merge", "A merge is a YAML file with the sections `merge` (its "
                + "name, the inputs in tie-break order, the order and the late policy), one `input.<name>` per input "
                + "(its cluster and topic), `target` (the cluster and the output topic) and `metrics` (optional). "
                + "`sluice validate FILE` checks one, `sluice merge FILE` runs it, `sluice lag FILE` shows how far it "
                + "is; how it works: [merge.md](merge.md).", MergeKeys.CATALOG);
    }

    /** The reference of another kind of file ({@code docs/<kind>-configuration.md}, from {@code ./sluice docs --<kind>}). */
    private static String sideReference(String title, String keysClass, String kind, String intro,
            KeyCatalog catalog) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title).append(" files\n\n")
                .append("<!-- Generated from io.sluice.cli.pipeline.").append(keysClass).append(" by `./sluice docs --")
                .append(kind).append(" > docs/").append(kind).append("-configuration.md`; edit the code, not this "
                        + "file. -->\n\n")
                .append(intro).append(" Variables, sizes, durations and secrets are written as in "
                        + "[pipeline files](configuration.md).\n");
        tables(b, catalog);
        return b.toString();
    }

    /** A table of keys for each section of {@code catalog} but the top one. */
    private static void tables(StringBuilder b, KeyCatalog catalog) {
        for (KeyCatalog.Section section : catalog.sections()) {
            if (section.path().isEmpty()) {
                continue;
            }
            b.append('\n').append(section.path().contains(".") ? "### " : "## ").append('`')
                    .append(KeyCatalog.readable(section.path())).append("`: ").append(section.description())
                    .append("\n\n");
            if (catalog.keysIn(section.path()).isEmpty()) {
                continue; // sections only: a family's parent, e.g. input of input.<name>
            }
            b.append("| key | type | default | description |\n|---|---|---|---|\n");
            for (ConfigKey<?> key : catalog.keysIn(section.path())) {
                b.append("| `").append(key.name()).append("` | ")
                        .append(cell(key.type().describe().replace(" (secret)", "")))
                        .append(key.secret() ? ", **secret**" : "").append(" | ")
                        .append(defaultCell(key)).append(" | ").append(cell(key.description())).append(" |\n");
            }
        }
    }

    private static void formats(StringBuilder b) {
        b.append("\n## File formats\n\n")
                .append("Every row of `jsonl`, `parquet` and `avro` files carries its Kafka coordinates (topic, "
                        + "partition, offset, timestamp); `raw` files hold the values' bytes only. JSON Lines and raw "
                        + "files are compressed as standard streams (gzip, Zstandard frames, the LZ4 frame format, the "
                        + "Snappy framing format) that command-line tools and DuckDB read. Values are JSON unless "
                        + "`value-encoding` says Avro: `parquet` and `avro` files then hold the decoded records, `raw` "
                        + "files their bytes. How values become rows: [formats.md](formats.md).\n\n")
                .append("| `format` | `codec` (default in bold) | `schema` | Avro values | other keys |\n"
                        + "|---|---|---|---|---|\n");
        for (FileFormats.Entry f : FileFormats.all()) {
            List<String> keys = new ArrayList<>();
            if (f.coordinates()) {
                keys.add("`kafka-key`, `kafka-headers`");
            }
            PipelineKeys.CATALOG.keysIn("sink." + f.name()).forEach(k -> keys.add("`" + k.path() + "`"));
            b.append("| `").append(f.name()).append("` | ")
                    .append(String.join(", ", f.codecs().stream()
                            .map(c -> c.equals(f.defaultCodec()) ? "**" + c + "**" : c).toList()))
                    .append(" | ").append(f.needsSchema() ? "required" : f.avroValues() ? "with Avro values" : "no")
                    .append(" | ").append(f.avroValues() ? "yes" : "no")
                    .append(" | ").append(String.join(", ", keys)).append(" |\n");
        }
    }

    private static void storage(StringBuilder b) {
        b.append("\n## Storage\n\n| `location` | in this build |\n|---|---|\n");
        for (StorageBackends.Entry s : StorageBackends.all()) {
            String example = switch (s.scheme()) {
                case "file" -> "a folder: `/data/archive`, `file:///data/archive`";
                case "s3" -> "`s3://bucket/prefix/`";
                default -> "`" + s.scheme() + "://...`";
            };
            b.append("| ").append(example).append(" | ").append(s.available() ? "yes" : "not yet: " + s.pending())
                    .append(" |\n");
        }
    }

    private static String defaultCell(ConfigKey<?> key) {
        return switch (key.presence()) {
            case REQUIRED -> "**required**";
            case OPTIONAL -> "none";
            case DEFAULT -> "`" + key.defaultText() + "`";
            case COMPUTED -> cell(key.defaultText());
        };
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
