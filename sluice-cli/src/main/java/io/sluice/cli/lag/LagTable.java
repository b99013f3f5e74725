package io.sluice.cli.lag;

import io.sluice.cli.console.Units;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link LagView} as text: a table of partitions, a totals line, the one-line verdict, then warnings and
 * notes.
 *
 * <p>Threading: stateless.
 */
final class LagTable {

    private static final String[] HEADER = {"TOPIC", "PARTITION", "END", "COMMITTED", "LAG", "LAG BYTES", "OLDEST",
        "RATE/S", "CATCH-UP", "RETENTION LEFT"};

    private LagTable() {
    }

    static String render(LagView view) {
        // the partitions in order, those whose offsets are unknown among them
        java.util.TreeMap<org.apache.kafka.common.TopicPartition, String[]> ordered = new java.util.TreeMap<>(
                java.util.Comparator.comparing(org.apache.kafka.common.TopicPartition::topic)
                        .thenComparingInt(org.apache.kafka.common.TopicPartition::partition));
        for (LagView.Row r : view.rows()) {
            ordered.put(r.partition(), new String[] {r.partition().topic(), Integer.toString(r.partition().partition()),
                Units.count(r.end()), r.committed() < 0 ? "-" : Units.count(r.committed()), Units.count(r.lag()),
                Double.isNaN(r.lagBytes()) ? "?" : Units.bytes(r.lagBytes()),
                r.oldestAge() == null ? "-" : Units.duration(r.oldestAge()),
                Double.isNaN(r.processedRate()) ? "?" : Units.compact(r.processedRate()), r.catchUp().toString(),
                r.retentionLeft().toString()});
        }
        view.unknown().keySet().forEach(tp -> ordered.put(tp, new String[] {tp.topic(),
            Integer.toString(tp.partition()), "?", "?", "?", "?", "?", "?", "?", "?"}));
        List<String[]> cells = new ArrayList<>();
        cells.add(HEADER);
        cells.addAll(ordered.values());
        int[] widths = new int[HEADER.length];
        for (String[] row : cells) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : cells) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                String cell = i == 0 ? pad(row[i], widths[i], false) : pad(row[i], widths[i], row != HEADER);
                line.append(i == 0 ? "" : "  ").append(cell);
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        LagView.Totals t = view.totals();
        out.append('\n').append("Total lag ").append(Units.count(t.lag())).append(" records");
        if (!Double.isNaN(t.lagBytes())) {
            out.append(" (").append(Units.bytes(t.lagBytes())).append(')');
        }
        if (!Double.isNaN(t.processedRate())) {
            out.append("; processing ").append(Units.compact(t.processedRate())).append(" rec/s, producing ")
                    .append(Units.compact(t.producedRate())).append(" rec/s");
        }
        out.append(" (rates from ").append(t.rateSource()).append(")\n");
        out.append(view.verdict()).append('\n');
        view.warnings().forEach(w -> out.append("Warning: ").append(w).append('\n'));
        view.notes().forEach(n -> out.append("Note: ").append(n).append('\n'));
        return out.toString();
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }
}
