/**
 * The status of a running pipeline: the {@code /metrics}, {@code /health} and {@code /ready} endpoint and its flags,
 * the sink's meters next to the engine's, and reading counters out of Prometheus text.
 */
package io.sluice.cli.status;
