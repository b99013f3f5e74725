package io.sluice.cli.status;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Reads samples out of Prometheus' text exposition format: enough to take a counter from a running instance's
 * {@code /metrics}, not a general parser.
 *
 * <p>Threading: stateless.
 */
public final class PrometheusText {

    private PrometheusText() {
    }

    /**
     * The sum of the samples named {@code name} whose labels include every entry of {@code labels}; empty when there
     * is none.
     */
    public static OptionalDouble sum(String text, String name, Map<String, String> labels) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            int end = name.length();
            if (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                continue; // a longer name with this one as prefix
            }
            Map<String, String> sampleLabels = new HashMap<>();
            int pos = end;
            if (pos < line.length() && line.charAt(pos) == '{') {
                pos = readLabels(line, pos + 1, sampleLabels);
            }
            if (!sampleLabels.entrySet().containsAll(labels.entrySet())) {
                continue;
            }
            String[] rest = line.substring(pos).trim().split("\\s+");
            sum += Double.parseDouble(rest[0]);
            found = true;
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** Reads {@code a="x",b="y"}} from {@code pos}; returns the position after the closing brace. */
    private static int readLabels(String line, int pos, Map<String, String> into) {
        while (pos < line.length() && line.charAt(pos) != '}') {
            int eq = line.indexOf('=', pos);
            String key = line.substring(pos, eq).trim();
            StringBuilder value = new StringBuilder();
            int i = eq + 2; // past ="
            for (; i < line.length() && line.charAt(i) != '"'; i++) {
                char c = line.charAt(i);
                if (c == '\\' && i + 1 < line.length()) {
                    char next = line.charAt(++i);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(c);
                }
            }
            into.put(key, value.toString());
            pos = i + 1;
            if (pos < line.length() && line.charAt(pos) == ',') {
                pos++;
            }
        }
        return pos + 1;
    }
}
