package io.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The runs of every system of a scenario: a table with the median and spread of each, and, as the last line, one
 * JSON object that tools and CI can read.
 */
final class Report {

    private final Scenario scenario;
    private final Map<String, List<Double>> rates = new LinkedHashMap<>();
    private final Map<String, Boolean> extrapolated = new LinkedHashMap<>();

    Report(Scenario scenario) {
        this.scenario = scenario;
        scenario.systems().forEach(s -> rates.put(s, new ArrayList<>()));
    }

    void add(String system, double recordsPerSecond, boolean partial) {
        rates.get(system).add(recordsPerSecond);
        extrapolated.put(system, partial);
    }

    String table() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%n%s: %,d records, %d partitions, %d keys, %d-byte values, handler %s, "
                        + "concurrency %d%n", scenario.name(), scenario.records(), scenario.partitions(), scenario.keys(),
                scenario.valueBytes(), scenario.handlerMillis() == 0 ? "sums value lengths" : "waits "
                        + scenario.handlerMillis() + " ms", scenario.concurrency()));
        b.append(String.format(Locale.ROOT, "%-20s %14s %14s %14s %10s  %s%n", "system", "median rec/s", "min", "max",
                "vs " + scenario.baseline(), "runs"));
        double base = median(rates.get(scenario.baseline()));
        rates.forEach((system, runs) -> b.append(String.format(Locale.ROOT, "%-20s %,14.0f %,14.0f %,14.0f %9.2fx  %s%s%n",
                system, median(runs), min(runs), max(runs), median(runs) / base, format(runs),
                Boolean.TRUE.equals(extrapolated.get(system))
                        ? "  (extrapolated from the first " + scenario.prefix() + " records)" : "")));
        return b.toString();
    }

    String json() {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("scenario", scenario.name());
        root.put("records", scenario.records());
        ObjectNode results = root.putObject("results");
        rates.forEach((system, runs) -> {
            ObjectNode r = results.putObject(system);
            r.put("records_per_sec", round(median(runs)));
            r.put("min_records_per_sec", round(min(runs)));
            r.put("max_records_per_sec", round(max(runs)));
            r.put("mb_per_sec", round(median(runs) * scenario.valueBytes() / 1e6));
            r.put("extrapolated", Boolean.TRUE.equals(extrapolated.get(system)));
            var array = r.putArray("runs");
            runs.forEach(v -> array.add(round(v)));
        });
        ObjectNode ratios = root.putObject("ratios");
        double base = median(rates.get(scenario.baseline()));
        for (String system : rates.keySet()) {
            if (!system.equals(scenario.baseline())) {
                ratios.put(system + "/" + scenario.baseline(), round(median(rates.get(system)) / base));
            }
        }
        if (rates.containsKey("sluice") && rates.containsKey("parallel-consumer")) {
            ratios.put("sluice/parallel-consumer",
                    round(median(rates.get("sluice")) / median(rates.get("parallel-consumer"))));
        }
        try {
            return mapper.writeValueAsString(root);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
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

    private static String format(List<Double> runs) {
        return runs.stream().map(v -> String.format(Locale.ROOT, "%,.0f", v)).toList().toString();
    }
}
