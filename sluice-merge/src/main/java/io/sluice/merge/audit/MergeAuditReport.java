package io.sluice.merge.audit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link MergeAudit} found, per output partition: counts, and the first problems of each kind in words (the
 * first one named in full). OK when no partition has a problem.
 *
 * <p>Threading: filled by one thread, read after.
 */
public final class MergeAuditReport {

    /** How many problems of a kind are kept in words; the rest are counted. */
    static final int KEPT = 10;

    private final List<Partition> partitions = new ArrayList<>();
    private final boolean atLeastOnce;

    /** {@code atLeastOnce}: the merge's delivery is at least once, where repeats are no problem (their order is). */
    MergeAuditReport(boolean atLeastOnce) {
        this.atLeastOnce = atLeastOnce;
    }

    /** Whether the merge audited writes at least once: records may repeat, each repeated window in merge order. */
    public boolean atLeastOnce() {
        return atLeastOnce;
    }

    Partition partition(int p, long[] positions) {
        Partition partition = new Partition(p, positions);
        partitions.add(partition);
        return partition;
    }

    public List<Partition> partitions() {
        return List.copyOf(partitions);
    }

    public boolean ok() {
        return partitions.stream().allMatch(Partition::ok);
    }

    /** For a person: a line per partition, then each problem found, by kind; the verdict last. */
    public String text() {
        StringBuilder s = new StringBuilder();
        for (Partition p : partitions) {
            s.append(p.summary()).append('\n');
            p.problems.forEach((kind, texts) -> {
                texts.forEach(t -> s.append("  ").append(kind).append(": ").append(t).append('\n'));
                long more = p.problemCount(kind) - texts.size();
                if (more > 0) {
                    s.append(String.format(Locale.ROOT, "  ... and %,d more %s%n", more, kind));
                }
            });
        }
        return s.append(!ok() ? "NOT OK: " + firstProblem() : atLeastOnce
                ? "OK: every committed input record is in the output at least once, unchanged, in merge order from "
                        + "each resumption on (at-least-once: a repeated window after each restart)"
                : "OK: every committed input record is in the output once, unchanged, in merge order").toString();
    }

    /** For a program: the same as {@link #text}, as JSON. */
    public String json() {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var root = mapper.createObjectNode();
        root.put("ok", ok());
        root.put("delivery", atLeastOnce ? "at-least-once" : "exactly-once");
        var list = root.putArray("partitions");
        for (Partition p : partitions) {
            var node = list.addObject();
            node.put("partition", p.partition).put("ok", p.ok()).put("output_records", p.output)
                    .put("late_records", p.late).put("input_records_checked", p.checked)
                    .put("not_comparable", p.uncheckable);
            if (atLeastOnce) {
                node.put("repeated_records", p.repeated).put("uncommitted_records", p.uncommitted)
                        .put("resumptions", p.resumptions);
            }
            var positions = node.putArray("committed_positions");
            for (long position : p.positions) {
                positions.add(position);
            }
            p.aside.forEach((kind, n) -> node.put(kind.replace('-', '_') + "_records", n));
            var problems = node.putObject("problems");
            p.problems.forEach((kind, texts) -> {
                var k = problems.putObject(kind.replace(' ', '_'));
                k.put("count", p.problemCount(kind));
                texts.forEach(k.putArray("first")::add);
            });
        }
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The first problem of the first partition that has one, or empty. */
    public String firstProblem() {
        return partitions.stream().filter(p -> !p.ok()).findFirst()
                .map(p -> "partition " + p.partition + ": " + p.problems.values().iterator().next().get(0))
                .orElse("");
    }

    /** One output partition's findings. */
    public static final class Partition {
        private final int partition;
        private final long[] positions;
        private final Map<String, List<String>> problems = new LinkedHashMap<>();
        private final Map<String, Long> problemCounts = new LinkedHashMap<>();
        private long output;
        private long late;
        private long checked;
        private long uncheckable;
        private long repeated;
        private long uncommitted;
        private long resumptions;
        private final Map<String, Long> aside = new LinkedHashMap<>();

        Partition(int partition, long[] positions) {
            this.partition = partition;
            this.positions = positions.clone();
        }

        void problem(String kind, String text) {
            problemCounts.merge(kind, 1L, Long::sum);
            List<String> kept = problems.computeIfAbsent(kind, k -> new ArrayList<>());
            if (kept.size() < KEPT) {
                kept.add(text);
            }
        }

        void output() {
            output++;
        }

        void late() {
            late++;
        }

        void countChecked() {
            checked++;
        }

        void uncheckable() {
            uncheckable++;
        }

        /** At least once: an input record written again (a repeated window). */
        void repeated() {
            repeated++;
        }

        /** At least once: a record written beyond the committed position (its commit did not happen yet). */
        void uncommitted() {
            uncommitted++;
        }

        /** At least once: an owner resumed writing the partition after a claim. */
        void resumed() {
            resumptions++;
        }

        void aside(String kind) {
            aside.merge(kind, 1L, Long::sum);
        }

        public int partition() {
            return partition;
        }

        public boolean ok() {
            return problems.isEmpty();
        }

        /** Problems by kind (missing, duplicate, changed, out of order, ...), the first {@link #KEPT} of each. */
        public Map<String, List<String>> problems() {
            return Map.copyOf(problems);
        }

        public long problemCount(String kind) {
            return problemCounts.getOrDefault(kind, 0L);
        }

        public long outputRecords() {
            return output;
        }

        public long lateRecords() {
            return late;
        }

        /** Input records read and matched (or found missing). */
        public long checked() {
            return checked;
        }

        /** At least once: input records found more than once (the extra copies). */
        public long repeatedRecords() {
            return repeated;
        }

        /** At least once: records written beyond the committed positions, to be written again by the next owner. */
        public long uncommittedRecords() {
            return uncommitted;
        }

        /** At least once: how often an owner resumed writing the output partition after a claim. */
        public long resumptions() {
            return resumptions;
        }

        public long asideRecords(String kind) {
            return aside.getOrDefault(kind, 0L);
        }

        /** One line: what was checked and what was found. */
        public String summary() {
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT,
                    "partition %d: %,d output records (%,d flagged late), %,d input records checked up to the "
                            + "committed positions %s", partition, output, late, checked,
                    java.util.Arrays.toString(positions)));
            aside.forEach((kind, n) -> s.append(String.format(Locale.ROOT, ", %,d in the %s topic", n, kind)));
            if (repeated > 0 || uncommitted > 0) {
                s.append(String.format(Locale.ROOT, ", %,d written again after a restart, %,d beyond the committed "
                        + "positions (at-least-once)", repeated, uncommitted));
            }
            if (uncheckable > 0) {
                s.append(String.format(Locale.ROOT, ", %,d no longer in their input (retention): not compared",
                        uncheckable));
            }
            if (problems.isEmpty()) {
                return s.append(": OK").toString();
            }
            problemCounts.forEach((kind, n) -> s.append(String.format(Locale.ROOT, "; %,d %s", n, kind)));
            return s.toString();
        }
    }
}
