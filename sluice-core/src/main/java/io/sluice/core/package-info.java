/**
 * Public API: the engine. Parallel processing of Kafka records beyond partitions, committing only what is done
 * ({@link io.sluice.core.Engine}, {@link io.sluice.core.EngineConfig}, handlers, policies and stats), and errors in
 * words for the lines a person reads ({@link io.sluice.core.ErrorWords}, with a failure's causes by kind:
 * {@link io.sluice.core.Causes}). It knows the
 * sink contract ({@code .sink}) and the commit point ({@code .commit}), nothing of formats or storage; the formats it
 * writes for other tools are in {@code .wire}. Everything under {@code .internal} is not API, and {@code .crash} is a
 * test hook.
 */
package io.sluice.core;
