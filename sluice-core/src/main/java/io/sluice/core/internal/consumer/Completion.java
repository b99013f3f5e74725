package io.sluice.core.internal.consumer;

/** A message from a worker to the consumer thread: this record of this partition is done. Immutable. */
record Completion(PartitionState partition, long offset, long bytes) {
}
