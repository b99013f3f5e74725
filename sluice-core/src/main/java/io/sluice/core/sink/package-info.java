/**
 * Public API: the sink contract, for sinks the engine feeds (the archive's files, a mirror's target cluster). Each
 * partition's records reach the sink in offset order; the engine's {@link io.sluice.core.commit.CommitPoint} makes its
 * checkpoints true.
 */
package io.sluice.core.sink;
