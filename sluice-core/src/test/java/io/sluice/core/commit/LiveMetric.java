package io.sluice.core.commit;

import java.util.function.DoubleSupplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/** A client metric as the watches read it: a live value, read at each look. For the watches' unit tests. */
final class LiveMetric implements Metric {

    private final DoubleSupplier value;

    private LiveMetric(DoubleSupplier value) {
        this.value = value;
    }

    static Metric of(DoubleSupplier value) {
        return new LiveMetric(value);
    }

    @Override
    public MetricName metricName() {
        return null;
    }

    @Override
    public Object metricValue() {
        return value.getAsDouble();
    }
}
