package io.sluice.audit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Whose a visible file is, and whether the archive put it there. The name alone is never enough: a copy of a data file
 * under another name ({@code copy-of-events+1+6.zstd.parquet} parses as a file of a topic {@code copy-of-events}) must
 * not pass as another topic's. Before the rows are read, the name and the manifests give an {@link Expectation}; after,
 * the rows confirm it or not ({@link #verdict}):
 * <ul>
 *   <li>another topic's file only when a manifest of that topic names it, or, when that topic has no manifests here
 *       (archived at least once), when its rows are all that topic's;
 *   <li>a file of the audited topic is the archive's when its manifests name it (or it has none) and its rows are
 *       the partition its name says;
 *   <li>a sink name that no manifest of its topic names is <em>unnamed</em>: the archive did not publish it;
 *   <li>a name the sink never writes is a <em>stranger</em>, whatever it holds.
 * </ul>
 * Files become visible only when a commit naming a manifest that lists them succeeded, so the manifests (and the
 * summaries that replaced older ones) name every file the archive published.
 *
 * <p>Threading: the audit's thread only (it reads the manifests through the {@link ManifestIndex}).
 */
final class Provenance {

    /** What a file's name and the manifests say about it before it is read. */
    enum Kind {
        /** A manifest of another topic names it: that topic's, not read. */
        OTHER_TOPIC,
        /** The audited topic's, of a partition not audited, named by its manifests (or it has none): not read. */
        PARTITION_NOT_AUDITED,
        /** The audited topic's by name, and named by its manifests (or it has none): its rows must agree. */
        ARCHIVED,
        /** A sink name of a topic with manifests, none of which names it. */
        UNNAMED,
        /** A sink name of another topic that has no manifests here: its rows tell whose it is. */
        BY_ROWS,
        /** Not a name the sink writes. */
        STRANGER
    }

    /** The expectation for one file; {@code name} is absent for strangers. */
    record Expectation(String path, Kind kind, Optional<SluiceFileName> name) {

        boolean read() {
            return kind != Kind.OTHER_TOPIC && kind != Kind.PARTITION_NOT_AUDITED;
        }
    }

    /** What a read file turned out to be; {@code problem} is null when it is in order. */
    record Verdict(Kind problem, String otherTopic, String reason) {

        static final Verdict IN_ORDER = new Verdict(null, null, null);
    }

    private final String topic;
    private final Set<Integer> audited;
    private final ManifestIndex manifests;

    Provenance(String topic, Set<Integer> audited, ManifestIndex manifests) {
        this.topic = topic;
        this.audited = audited;
        this.manifests = manifests;
    }

    /** Whether the audited topic has manifests here: without them (at least once) files are checked by name and rows. */
    boolean topicHasManifests() throws IOException {
        return manifests.hasManifests(topic);
    }

    Expectation expect(String path) throws IOException {
        Optional<SluiceFileName> name = SluiceFileName.parseSinkName(SluiceFileName.fileNameOf(path));
        if (name.isEmpty()) {
            return new Expectation(path, Kind.STRANGER, name);
        }
        String named = name.get().topic();
        boolean listed = manifests.namedPaths(named).contains(path);
        if (!named.equals(topic)) {
            Kind kind = listed ? Kind.OTHER_TOPIC : manifests.hasManifests(named) ? Kind.UNNAMED : Kind.BY_ROWS;
            return new Expectation(path, kind, name);
        }
        if (!listed && manifests.hasManifests(topic)) {
            return new Expectation(path, Kind.UNNAMED, name);
        }
        // named by the manifests, or archived at least once (no manifests): a partition not audited is skipped by name
        return new Expectation(path, audited.contains(name.get().partition()) ? Kind.ARCHIVED
                : Kind.PARTITION_NOT_AUDITED, name);
    }

    /** What a file whose rows were read is. */
    Verdict verdict(Expectation e, FileRows rows) {
        String holds = holds(rows);
        return switch (e.kind()) {
            case ARCHIVED -> {
                int partition = e.name().orElseThrow().partition();
                boolean agrees = rows.otherTopics.isEmpty()
                        && rows.topicPartitions.stream().allMatch(p -> p == partition);
                yield agrees ? Verdict.IN_ORDER : new Verdict(Kind.STRANGER, null, "its name says " + topic
                        + " partition " + partition + ", but " + holds);
            }
            case UNNAMED -> new Verdict(Kind.UNNAMED, null, unnamed(e) + "; " + holds);
            case BY_ROWS -> {
                String named = e.name().orElseThrow().topic();
                boolean theirs = rows.topicPartitions.isEmpty() && rows.otherTopics.stream().allMatch(named::equals);
                yield theirs ? new Verdict(null, named, null) : new Verdict(Kind.STRANGER, null, "its name says topic "
                        + named + " (which has no manifests here), but " + holds);
            }
            case STRANGER -> new Verdict(Kind.STRANGER, null, notTheSinks() + "; " + holds);
            case OTHER_TOPIC, PARTITION_NOT_AUDITED -> throw new IllegalStateException(e + " is not read");
        };
    }

    /** What a file in a format without Kafka coordinates (raw bytes) is, when it is not a claim to check. */
    Verdict verdictWithoutRows(Expectation e) {
        return switch (e.kind()) {
            case UNNAMED -> new Verdict(Kind.UNNAMED, null, unnamed(e) + "; its format stores no Kafka coordinates");
            case BY_ROWS -> new Verdict(Kind.STRANGER, null, "its name says topic " + e.name().orElseThrow().topic()
                    + ", which has no manifests here, and its format stores no Kafka coordinates: whose it is cannot "
                    + "be told");
            default -> new Verdict(Kind.STRANGER, null, "not a Sluice data file: no Sluice format has this name");
        };
    }

    /** What a file that could not be read is, when it is not the audited topic's by name. */
    Verdict verdictUnreadable(Expectation e, String reason) {
        return switch (e.kind()) {
            case UNNAMED -> new Verdict(Kind.UNNAMED, null, unnamed(e) + "; " + reason);
            case BY_ROWS -> new Verdict(Kind.STRANGER, null, "its name says topic " + e.name().orElseThrow().topic()
                    + " (which has no manifests here), and it cannot be read: " + reason);
            default -> new Verdict(Kind.STRANGER, null, "not a Sluice data file: " + reason);
        };
    }

    private String unnamed(Expectation e) {
        String named = e.name().orElseThrow().topic();
        return "no manifest of " + named + " names it, so its exactly-once archive did not publish it here (a copy, a "
                + "moved or planted file, or one written at least once before)";
    }

    private static String notTheSinks() {
        return "its name is not one the archive writes (<topic>+<partition>+<first offset><extension>)";
    }

    /** "it holds 108 rows, of events partition 1 (offsets 6–113)". */
    private String holds(FileRows rows) {
        if (rows.rows == 0) {
            return "it holds no rows";
        }
        List<String> whose = new ArrayList<>();
        if (!rows.topicPartitions.isEmpty()) {
            StringBuilder b = new StringBuilder(topic).append(rows.topicPartitions.size() == 1 ? " partition "
                    : " partitions ").append(join(rows.topicPartitions));
            if (rows.partitions.size() == 1 && rows.topicPartitions.size() == 1) {
                FileRows.PartitionRows p = rows.partitions.values().iterator().next();
                b.append(" (offsets ").append(p.lowest).append('–').append(p.highest).append(')');
            }
            whose.add(b.toString());
        }
        if (!rows.otherTopics.isEmpty()) {
            whose.add((rows.otherTopics.size() == 1 ? "topic " : "topics ") + join(rows.otherTopics));
        }
        return "it holds " + ReportText.n(rows.rows) + (rows.rows == 1 ? " row, of " : " rows, of ")
                + String.join(" and ", whose);
    }

    private static String join(Set<?> values) {
        return String.join(", ", values.stream().map(String::valueOf).toList());
    }
}
