package io.sluice.cli.status;

import io.sluice.cli.config.OptionValues;
import io.sluice.cli.pipeline.MetricsConfig;
import picocli.CommandLine.Option;

/**
 * The flags of the metrics endpoint, over the pipeline's {@code metrics} section: a picocli mixin. Without a port
 * from either there is no endpoint.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class MetricsOptions {

    @Option(names = "--metrics-port", paramLabel = "PORT", converter = OptionValues.PortValue.class, description = "Serve /metrics, /health and /ready on "
            + "this port, 0 for any free one (instead of the pipeline's metrics.port).")
    Integer port;

    @Option(names = "--metrics-address", paramLabel = "ADDRESS",
            description = "The address the endpoint listens on (instead of the pipeline's metrics.address, by default "
                    + "127.0.0.1; 0.0.0.0 for every interface, which exposes topic and group names).")
    String address;

    /** The pipeline's endpoint with these flags over it. */
    public MetricsConfig over(MetricsConfig pipeline) {
        return pipeline.over(port, address);
    }
}
