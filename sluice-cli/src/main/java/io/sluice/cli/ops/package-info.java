/**
 * Operating a pipeline: bounded-run options, the bootstrap probe, the {@code lag} command, the metrics and health
 * endpoint, and the live progress line. Library classes plus picocli commands that the top-level command wires in.
 */
package io.sluice.cli.ops;
