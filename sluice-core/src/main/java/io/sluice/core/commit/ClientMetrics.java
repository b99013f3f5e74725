package io.sluice.core.commit;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Reading a Kafka client's metrics as the watches do: which connection a per-connection metric
 * ({@code consumer-node-metrics}, {@code producer-node-metrics}) is about, and a metric's value.
 *
 * <p>Stateless.
 */
final class ClientMetrics {

    private ClientMetrics() {
    }

    /**
     * The connection a per-connection metric of {@code group} is about, from its {@code node-id} tag: a broker's id
     * ("node-2"), a coordinator's alias, or a negative bootstrap connection ("node--1"); null for another group or a
     * tag it cannot read.
     */
    static Integer node(MetricName name, String group) {
        String node = name.tags().get("node-id");
        if (!name.group().equals(group) || node == null || !node.startsWith("node-")) {
            return null;
        }
        try {
            return Integer.parseInt(node.substring("node-".length()));
        } catch (NumberFormatException notANode) {
            return null;
        }
    }

    /** A metric's value, or NaN when it has none (NaN compares as neither less nor equal). */
    static double value(Metric metric) {
        return metric != null && metric.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
