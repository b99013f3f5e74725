package io.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.bench.acks.AcksMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of every system of a scenario: a table with the median and spread of each, and, as the last line, one
 * JSON object that tools and CI can read. Each run's figures are what its JVM printed ({@code RESULT <json>}); every
 * numeric figure is reported as the median over the runs, the headline rate also with its minimum, maximum and runs.
 *
 * <p>Threading: one thread.
 */
final class Report {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Figures reported by their worst run rather than their median. */
    private static final List<String> WORST_OF = List.of("duplicates", "missing", "acknowledged_lost",
            "unacknowledged_present");

    private final Scenario scenario;
    private final Map<String, List<JsonNode>> runs = new LinkedHashMap<>();

    Report(Scenario scenario) {
        this.scenario = scenario;
        scenario.systems().forEach(s -> runs.put(s, new ArrayList<>()));
    }

    void add(String system, JsonNode run) {
        runs.get(system).add(run);
    }

    /** The figure systems are compared by: records per second, or for codecs the compression rate. */
    String headline() {
        return scenario.kind() == Scenario.Kind.CODECS ? "compress_mb_per_sec" : "records_per_sec";
    }

    /** Figures reported with their minimum and maximum too. */
    private List<String> spread() {
        return switch (scenario.kind()) {
            case CODECS -> List.of("compress_mb_per_sec", "decompress_mb_per_sec");
            case MIRROR, MERGE -> List.of("records_per_sec", "first_record_seconds", "cpu_us_per_record");
            case ACKS -> List.of("records_per_sec", "acknowledged_lost", "duplicates");
            case PRODUCE -> List.of("records_per_sec", "cpu_us_per_record");
            default -> List.of("records_per_sec");
        };
    }

    double median(String system, String figure) {
        return median(values(system, figure));
    }

    String table() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%n%s%n", description()));
        List<Column> extra = columns();
        b.append(String.format(Locale.ROOT, "%-18s %13s %13s %13s %19s", "system", "median", "min", "max",
                "vs " + scenario.baseline()));
        extra.forEach(c -> b.append(String.format(Locale.ROOT, " %12s", c.header())));
        b.append("  runs\n");
        double base = median(scenario.baseline(), headline());
        runs.forEach((system, list) -> {
            List<Double> rates = values(system, headline());
            b.append(String.format(Locale.ROOT, "%-18s %,13.0f %,13.0f %,13.0f %18.2fx", system, median(rates),
                    min(rates), max(rates), median(rates) / base));
            for (Column c : extra) {
                List<Double> values = values(system, c.figure());
                b.append(values.isEmpty() ? String.format(Locale.ROOT, " %12s", "-") : String.format(Locale.ROOT,
                        " %,12." + c.decimals() + "f", summarized(c.figure(), values) / c.divisor()));
            }
            b.append("  ").append(rates.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList());
            if (anyTrue(system, "extrapolated")) {
                b.append("  (extrapolated from the first ").append(scenario.prefix()).append(" records)");
            }
            b.append('\n');
        });
        ratios().forEach(r -> b.append(String.format(Locale.ROOT, "%s = %.2f%s%n", r.name(), ratio(r),
                r.goal() == null ? "" : String.format(Locale.ROOT, " (goal %s %s: %s)", r.atMost() ? "<=" : ">=",
                        r.goal(), r.met(ratio(r)) ? "met" : "NOT met"))));
        return b.toString();
    }

    String json() {
        ObjectNode root = JSON.createObjectNode();
        root.put("scenario", scenario.name());
        root.put("records", scenario.records());
        ObjectNode results = root.putObject("results");
        runs.forEach((system, list) -> results.set(system, summary(system, list)));
        ObjectNode ratios = root.putObject("ratios");
        ObjectNode goals = JSON.createObjectNode();
        for (Scenario.Ratio r : ratios()) {
            ratios.put(r.name(), round(ratio(r)));
            if (r.goal() != null) {
                goals.putObject(r.name()).put(r.atMost() ? "at_most" : "at_least", r.goal()).put("met",
                        r.met(ratio(r)));
            }
        }
        if (!goals.isEmpty()) {
            root.set("goals", goals);
        }
        try {
            return JSON.writeValueAsString(root);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private ObjectNode summary(String system, List<JsonNode> list) {
        ObjectNode r = JSON.createObjectNode();
        for (String figure : figures(list)) {
            List<Double> values = values(system, figure);
            double value = summarized(figure, values);
            if (values.stream().allMatch(v -> v == Math.rint(v))) {
                r.put(figure, Math.round(value));
            } else {
                r.put(figure, round(value));
            }
            if (spread().contains(figure)) {
                r.put("min_" + figure, round(min(values)));
                r.put("max_" + figure, round(max(values)));
            }
        }
        if (scenario.kind() == Scenario.Kind.ENGINE || scenario.kind() == Scenario.Kind.ARCHIVE
                || scenario.kind() == Scenario.Kind.MIRROR || scenario.kind() == Scenario.Kind.MERGE) {
            r.put("extrapolated", anyTrue(system, "extrapolated"));
        }
        for (String figure : spread()) {
            ArrayNode array = r.putArray(figure.equals(headline()) ? "runs" : figure + "_runs");
            values(system, figure).forEach(v -> array.add(round(v)));
        }
        return r;
    }

    /** Every system against the baseline, then the scenario's own comparisons. */
    private List<Scenario.Ratio> ratios() {
        List<Scenario.Ratio> all = new ArrayList<>();
        for (String system : runs.keySet()) {
            if (!system.equals(scenario.baseline()) && scenario.ratios().stream().noneMatch(r -> r.figure() == null
                    && r.system().equals(system) && r.against().equals(scenario.baseline()))) {
                all.add(new Scenario.Ratio(system, scenario.baseline(), null));
            }
        }
        all.addAll(scenario.ratios());
        return all;
    }

    private double ratio(Scenario.Ratio r) {
        String figure = r.figure() == null ? headline() : r.figure();
        return median(r.system(), figure) / median(r.against(), figure);
    }

    private String description() {
        return switch (scenario.kind()) {
            case ENGINE -> String.format(Locale.ROOT, "%s: %,d records, %d partitions, %d keys, %d-byte values, "
                    + "handler %s, concurrency %d; records/s", scenario.name(), scenario.records(),
                    scenario.partitions(), scenario.keys(), scenario.valueBytes(),
                    scenario.handlerMillis() == 0 ? "sums value lengths" : "waits " + scenario.handlerMillis() + " ms",
                    scenario.concurrency());
            case ARCHIVE -> String.format(Locale.ROOT, "%s: %,d log lines of %d bytes, %d partitions, into %s files "
                    + "under %s (time from value.%s, UTC) on local disk; commit every %d ms, files sealed at each "
                    + "commit; sluice exactly once, connect-sink at least once on the bytes, connect-json the same "
                    + "through Connect's schemaless JsonConverter; records/s from the first record to "
                    + "every partition's end committed", scenario.name(), scenario.records(), scenario.valueBytes(),
                    scenario.partitions(), scenario.archive().format().extension(),
                    scenario.archive().pathTemplate(), scenario.archive().timeField(),
                    scenario.archive().commitInterval().toMillis());
            case MIRROR -> String.format(Locale.ROOT, "%s: %,d log lines of %d bytes, %d partitions, %d keys, copied "
                    + "between two single-node clusters; sluice, sluice-command (the `sluice mirror` command) and "
                    + "mm2-eos exactly once, the others at least once (sluice-command-alo: the command's); "
                    + "records/s from the first to the last record visible to a read_committed reader of the target; "
                    + "first = seconds from the copier's launch to the first record there; CPU = the copier's, "
                    + "src/tgt broker = the source's and target's broker's over the same span, per record (the "
                    + "target broker warmed up first); copies = records that reader counted, dups = records among "
                    + "them copied more than once; re-read = records a consumer "
                    + "group (committed at 37%% of each partition before the copy) would read again after failing "
                    + "over to the offsets the mirror wrote for it in the target (0 = exact, negative = skipped)",
                    scenario.name(),
                    scenario.records(), scenario.valueBytes(), scenario.partitions(), scenario.keys());
            case MERGE -> String.format(Locale.ROOT, "%s: two inputs of %,d log lines of %d bytes, %d partitions, "
                    + "%d keys, on two single-node clusters, record timestamps rising 7 ms a record, east's %d s "
                    + "behind west's; sluice-merge merges them into one topic on a third cluster (the smoke test: "
                    + "west's), sluice-mirror copies both there (two mirrors in one JVM), both exactly once; records/s of both inputs from "
                    + "the first to the last record visible to a read_committed reader of the target; CPU = the "
                    + "system's process over that span; first = seconds from its launch to the first record there; "
                    + "every merge audited (each record once, in order) and its output the same in every round",
                    scenario.name(), scenario.records() / 2, scenario.valueBytes(), scenario.partitions(),
                    scenario.keys(), MergeInputs.EAST_BEHIND_MILLIS / 1000);
            case ACKS -> String.format(Locale.ROOT, "%s: %,d log lines of %d bytes (sync rows %,d), %d partitions, "
                    + "replication factor 3, min.insync.replicas 2, on three brokers; the broker leading most "
                    + "partitions killed -9 a third of the way in and restarted; a read_committed reader counts: "
                    + "acked = sends acknowledged, lost = acknowledged and absent, failed = sends reported failed, "
                    + "failed+there = failed yet present, dups = copies beyond the first (lost, failed+there and dups: "
                    + "the worst round); records/s over the whole run, outage included", scenario.name(),
                    scenario.records(), scenario.valueBytes(), scenario.records() / AcksMode.SYNC_SHARE,
                    scenario.partitions());
            case PRODUCE -> String.format(Locale.ROOT, "%s: %,d log lines of %d bytes, one JSON value a line, from "
                    + "a file into a fresh %d-partition topic of one broker; every system with sluice produce's "
                    + "defaults: acks=all, idempotence, 5 in flight, linger 10 ms, batch 128 KiB, no compression; "
                    + "records/s and MB/s from the launch of the producer's process to its exit; CPU = that process's "
                    + "user+system time from the OS; in topic = records a read_committed reader counted afterwards, "
                    + "missing and dups by the lines' seq (the worst round); producer-perf sends lines drawn at "
                    + "random from the first 10,000 (it loads its payload file into memory), so only its count",
                    scenario.name(), scenario.records(), scenario.valueBytes(), scenario.partitions());
            case CODECS -> String.format(Locale.ROOT, "%s: %,d log lines of %d bytes as JSON Lines, in memory; "
                    + "compress = the format writing through the codec, MB/s of uncompressed JSON Lines",
                    scenario.name(), scenario.records(), scenario.valueBytes());
        };
    }

    private record Column(String header, String figure, double divisor, int decimals) {
    }

    private List<Column> columns() {
        return switch (scenario.kind()) {
            case ENGINE -> List.of(new Column("CPU µs/rec", "cpu_us_per_record", 1, 1),
                    new Column("w/o JIT µs", "cpu_us_per_record_without_jit", 1, 1));
            case ARCHIVE -> List.of(new Column("MB/s", "mb_per_sec", 1, 1), new Column("drain s", "seconds", 1, 2),
                    new Column("output MB", "output_bytes", 1e6, 1), new Column("files", "output_files", 1, 0),
                    new Column("heap MB", "heap_peak_mb", 1, 0), new Column("CPU µs/rec", "cpu_us_per_record", 1, 1),
                    new Column("w/o JIT µs", "cpu_us_per_record_without_jit", 1, 1));
            case MIRROR -> List.of(new Column("MB/s", "mb_per_sec", 1, 1),
                    new Column("first s", "first_record_seconds", 1, 2),
                    new Column("CPU µs/rec", "cpu_us_per_record", 1, 1),
                    new Column("w/o JIT µs", "cpu_us_per_record_without_jit", 1, 1),
                    new Column("src broker µs", "source_broker_cpu_us_per_record", 1, 1),
                    new Column("tgt broker µs", "target_broker_cpu_us_per_record", 1, 1),
                    new Column("copies", "target_records", 1, 0),
                    new Column("dups", "duplicates", 1, 0), new Column("re-read", "failover_reread", 1, 0));
            case MERGE -> List.of(new Column("MB/s", "mb_per_sec", 1, 1),
                    new Column("first s", "first_record_seconds", 1, 2),
                    new Column("CPU µs/rec", "cpu_us_per_record", 1, 1),
                    new Column("w/o JIT µs", "cpu_us_per_record_without_jit", 1, 1),
                    new Column("copies", "target_records", 1, 0),
                    new Column("dups", "duplicates", 1, 0), new Column("late", "late_records", 1, 0));
            case ACKS -> List.of(new Column("sent", "sent", 1, 0), new Column("acked", "acknowledged", 1, 0),
                    new Column("lost", "acknowledged_lost", 1, 0), new Column("failed", "unacknowledged", 1, 0),
                    new Column("failed+there", "unacknowledged_present", 1, 0), new Column("dups", "duplicates", 1, 0),
                    new Column("ack p50 ms", "ack_p50_ms", 1, 2), new Column("in flight", "in_flight_at_kill", 1, 0));
            case PRODUCE -> List.of(new Column("MB/s", "mb_per_sec", 1, 1), new Column("wall s", "seconds", 1, 2),
                    new Column("CPU µs/rec", "cpu_us_per_record", 1, 1),
                    new Column("in topic", "topic_records", 1, 0), new Column("missing", "missing", 1, 0),
                    new Column("dups", "duplicates", 1, 0));
            case CODECS -> List.of(new Column("ratio", "ratio", 1, 2),
                    new Column("decomp MB/s", "decompress_mb_per_sec", 1, 0));
        };
    }

    private static List<String> figures(List<JsonNode> list) {
        List<String> names = new ArrayList<>();
        for (JsonNode run : list) {
            for (Iterator<String> it = run.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (run.get(name).isNumber() && !name.equals("records") && !names.contains(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private List<Double> values(String system, String figure) {
        return runs.get(system).stream().filter(run -> run.has(figure)).map(run -> run.get(figure).asDouble())
                .toList();
    }

    private boolean anyTrue(String system, String flag) {
        return runs.get(system).stream().anyMatch(run -> run.path(flag).asBoolean(false));
    }

    /** The median of a figure's runs, but the worst run of {@link #WORST_OF}. */
    private static double summarized(String figure, List<Double> values) {
        // a doubled or lost record in any run is worth reporting, whatever the other runs did
        return WORST_OF.contains(figure) ? max(values) : median(values);
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
