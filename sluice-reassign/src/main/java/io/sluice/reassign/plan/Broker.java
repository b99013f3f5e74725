package io.sluice.reassign.plan;

/**
 * A broker of the cluster: its ID and {@code broker.rack} (null when it has none).
 *
 * <p>Immutable.
 */
public record Broker(int id, String rack) {
}
