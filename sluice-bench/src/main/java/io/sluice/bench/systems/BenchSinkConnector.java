package io.sluice.bench.systems;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The connector around {@link BenchSinkTask}: every task gets the same settings, and Kafka Connect spreads the
 * partitions over {@code tasks.max} tasks.
 *
 * <p>Threading: called by Connect's herder, one call at a time.
 */
public final class BenchSinkConnector extends SinkConnector {

    /** The root folder of the archive. */
    static final String OUTPUT = "sluice.bench.output";
    /** The scenario whose {@link io.sluice.bench.ArchiveWork} the tasks do. */
    static final String SCENARIO = "sluice.bench.scenario";
    /** Whether it is the scenario's smoke form. */
    static final String SMOKE = "sluice.bench.smoke";

    private static final ConfigDef CONFIG = new ConfigDef()
            .define(OUTPUT, ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "root folder of the archive")
            .define(SCENARIO, ConfigDef.Type.STRING, ConfigDef.Importance.HIGH, "benchmark scenario")
            .define(SMOKE, ConfigDef.Type.BOOLEAN, false, ConfigDef.Importance.LOW, "the scenario's smoke form");

    private Map<String, String> settings;

    @Override
    public void start(Map<String, String> props) {
        settings = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return BenchSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        return Collections.nCopies(maxTasks, settings);
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return CONFIG;
    }

    @Override
    public String version() {
        return BenchSinkTask.VERSION;
    }
}
