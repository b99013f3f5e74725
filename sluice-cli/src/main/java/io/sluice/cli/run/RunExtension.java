package io.sluice.cli.run;

import io.sluice.cli.pipeline.Pipeline;
import io.sluice.core.EngineConfig;

/**
 * A feature that joins {@code sluice run} without changing it (metrics endpoint, bootstrap probe, bounded runs...).
 * An implementation may declare picocli {@code @Option}s: it is added to {@code run} as a mixin, so its options
 * appear in {@code sluice run --help} and are set before the hooks below are called. Register it in
 * {@link RunExtensions}.
 *
 * <p>Threading: the hooks are called from the main thread, one at a time, in this order.
 */
public interface RunExtension {

    /** The mixin's name; unique among extensions. */
    String name();

    /**
     * Before any Kafka or storage client exists; also run by {@code validate --connect}. Throw
     * {@link io.sluice.cli.config.ConfigException} for a mistake in the pipeline file (exit status 2), anything else
     * for an environment that does not work (exit status 1).
     */
    default void preflight(Pipeline pipeline) throws Exception {
    }

    /** Adds to the engine's configuration (a meter registry, say) before it starts. */
    default void configure(Pipeline pipeline, EngineConfig.Builder engine) {
    }

    /**
     * The engine is running. Returns what to close when the run ends (before the engine drains), or null.
     */
    default AutoCloseable started(RunningPipeline running) throws Exception {
        return null;
    }
}
