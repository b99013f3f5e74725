package io.sluice.cli.pipeline;

import io.sluice.cli.config.Settings;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The HTTP endpoint of a running pipeline ({@code /metrics}, {@code /health}, {@code /ready}): where it listens, if
 * anywhere.
 *
 * <p>Immutable.
 *
 * @param port    the port, 0 for any free one, or null for no endpoint
 * @param address the address to listen on
 */
public record MetricsConfig(Integer port, String address) {

    static MetricsConfig from(Settings s) {
        return new MetricsConfig(s.get(PipelineKeys.METRICS_PORT), s.get(PipelineKeys.METRICS_ADDRESS));
    }

    /** This, with what the command line gives instead (null where it gives nothing). */
    public MetricsConfig over(Integer port, String address) {
        return new MetricsConfig(port != null ? port : this.port, address != null ? address : this.address);
    }

    /** Where to listen, when there is an endpoint; the address is resolved now. */
    public Optional<InetSocketAddress> endpoint() {
        return port == null ? Optional.empty() : Optional.of(new InetSocketAddress(address, port));
    }
}
