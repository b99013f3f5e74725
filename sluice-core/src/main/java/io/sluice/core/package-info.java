/**
 * The engine: parallel processing of Kafka records beyond partitions, committing only what is done. It knows the sink contract, nothing of formats or storage.
 */
package io.sluice.core;
