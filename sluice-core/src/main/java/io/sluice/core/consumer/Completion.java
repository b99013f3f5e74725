package io.sluice.core.consumer;

/** A message from a worker to the consumer thread: these offsets of this partition are done. Immutable. */
record Completion(PartitionState partition, long[] offsets, long bytes) {
}
