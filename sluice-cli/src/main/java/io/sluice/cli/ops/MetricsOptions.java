package io.sluice.cli.ops;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.net.InetSocketAddress;
import picocli.CommandLine.Option;

/**
 * The flags of the metrics endpoint: a picocli mixin. Without {@code --metrics-port} there is no endpoint.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class MetricsOptions {

    @Option(names = "--metrics-port", paramLabel = "PORT", description = "Serve /metrics, /health and /ready on "
            + "this port (0 for any free one).")
    Integer port;

    @Option(names = "--metrics-address", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "The address the endpoint binds to (default ${DEFAULT-VALUE}; 0.0.0.0 for every "
                    + "interface, which exposes topic and group names).")
    String address;

    /** Starts the endpoint when a port was given; null otherwise. */
    public MetricsServer startIfAsked(PrometheusMeterRegistry registry) {
        if (port == null) {
            return null;
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--metrics-port must be 0..65535, not " + port);
        }
        return MetricsServer.start(registry, new InetSocketAddress(address, port));
    }
}
