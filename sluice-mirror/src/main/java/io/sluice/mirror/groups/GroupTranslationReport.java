package io.sluice.mirror.groups;

import io.sluice.core.ClusterConnection;
import io.sluice.core.ErrorWords;
import io.sluice.mirror.MirrorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.clients.admin.Admin;

/**
 * For people: per source group and partition, the offset committed in the source, its exact translation, what the
 * same group committed in the target, and how many records a consumer failing over now would read twice (the copies
 * between the target's commit and the translation; negative: it would skip that many). The goal is 0 everywhere.
 *
 * <p>Immutable.
 */
public final class GroupTranslationReport {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /**
     * The most offsets between a group's target commit and its translation whose copies are counted: a group far
     * behind or ahead in the target (a consumer reading there, lagging by millions) made the count read them all, give
     * up after 30 s, and the whole report failed with no row shown (a review).
     */
    static final long MOST_COUNTED = 100_000;

    /**
     * One partition of one group, and what a failover would re-read, counted (none when it cannot be told or was not
     * counted); {@code uncounted} says why not, and what is known instead.
     */
    public record Row(PartitionTranslation translation, OptionalLong rereadOnFailover, Optional<String> uncounted) {
    }

    private final List<Row> rows;

    private GroupTranslationReport(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /** Asks both clusters about the groups of the mirror {@code config} describes, with clients of its own. */
    public static GroupTranslationReport of(MirrorConfig config) {
        try (Admin source = Admin.create(ClusterConnection.of(config.sourceProperties()));
                Admin target = Admin.create(ClusterConnection.of(config.targetProperties()))) {
            String sourceClusterId = AdminCalls.await(source.describeCluster().clusterId(), "reach the source cluster",
                    TIMEOUT);
            try (GroupTranslations translations = GroupTranslations.open(config, sourceClusterId, source, target,
                    TIMEOUT)) {
                return of(translations);
            }
        }
    }

    static GroupTranslationReport of(GroupTranslations translations) {
        return of(translations, MOST_COUNTED);
    }

    /** As {@link #of(GroupTranslations)}, counting the copies of at most {@code mostCounted} offsets per row. */
    static GroupTranslationReport of(GroupTranslations translations, long mostCounted) {
        translations.startRound();
        List<Row> rows = new ArrayList<>();
        for (String group : translations.groups()) {
            for (PartitionTranslation t : translations.of(group)) {
                rows.add(row(translations, t, mostCounted));
            }
        }
        return new GroupTranslationReport(rows);
    }

    private static Row row(GroupTranslations translations, PartitionTranslation t, long mostCounted) {
        if (t.translation().isEmpty() || t.targetCommitted().isEmpty()) {
            return new Row(t, OptionalLong.empty(), Optional.empty());
        }
        long exact = t.translation().getAsLong();
        long committed = t.targetCommitted().getAsLong();
        long apart = Math.abs(exact - committed);
        if (apart > mostCounted) {
            return new Row(t, OptionalLong.empty(), Optional.of(String.format(Locale.ROOT, "%s up to %,d records (the "
                    + "offsets between the target's commit and the translation; not counted, being so many)",
                    committed <= exact ? "re-reads" : "SKIPS", apart)));
        }
        try {
            return new Row(t, OptionalLong.of(committed <= exact
                    ? translations.copiesBetween(t.target(), committed, exact)
                    : -translations.copiesBetween(t.target(), exact, committed)), Optional.empty());
        } catch (RuntimeException e) {
            return new Row(t, OptionalLong.empty(), Optional.of("cannot tell: " + ErrorWords.of(e)));
        }
    }

    public List<Row> rows() {
        return rows;
    }

    /** A table, one line per group and partition, with a header line. */
    public String text() {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"GROUP", "SOURCE PARTITION", "SOURCE COMMITTED", "TRANSLATION", "TARGET COMMITTED",
            "A FAILOVER NOW"});
        for (Row row : rows) {
            PartitionTranslation t = row.translation();
            lines.add(new String[] {t.group(), t.source().toString(), Long.toString(t.sourceCommitted()),
                text(t.translation()), text(t.targetCommitted()), failover(row)});
        }
        int[] widths = new int[lines.get(0).length];
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] line : lines) {
            for (int i = 0; i < line.length; i++) {
                b.append(i == line.length - 1 ? line[i] : String.format("%-" + (widths[i] + 2) + "s", line[i]));
            }
            b.append('\n');
        }
        if (rows.isEmpty()) {
            b.append("(no source group that matches has committed offsets of the mirrored topics)\n");
        }
        return b.toString();
    }

    private static String failover(Row row) {
        PartitionTranslation t = row.translation();
        if (t.notTranslated().isPresent()) {
            return "not translated: " + t.notTranslated().get();
        }
        if (t.translation().isEmpty()) {
            return "not copied yet";
        }
        if (t.targetCommitted().isEmpty()) {
            return "no offset in the target yet";
        }
        String words;
        if (row.uncounted().isPresent()) {
            words = row.uncounted().get();
        } else {
            long reread = row.rereadOnFailover().getAsLong();
            words = reread >= 0 ? "re-reads " + reread : "SKIPS " + -reread + " records";
        }
        // "re-reads 0" of a group the copy is behind read as a safe failover, where records it read are not in the
        // target yet (a chaos run): a count of offsets, markers among them, so "up to"
        return t.aheadOfTheCopy() == 0 ? words : words + "; up to " + t.aheadOfTheCopy() + " records it read are not "
                + "copied yet (the mirror is behind)";
    }

    private static String text(OptionalLong offset) {
        return offset.isPresent() ? Long.toString(offset.getAsLong()) : "-";
    }
}
