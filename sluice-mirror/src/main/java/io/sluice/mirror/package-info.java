/**
 * API: a mirror between two Kafka clusters. {@link io.sluice.mirror.MirrorConfig} says what to copy and how,
 * {@link io.sluice.mirror.Mirror} runs it on the engine. The data path: {@code copy} (the sink, the provenance header,
 * the writes into the target), {@code topics} (the target topics), {@code groups} (consumer offset translation),
 * {@code audit} (the comparison behind {@code sluice verify}).
 */
package io.sluice.mirror;
