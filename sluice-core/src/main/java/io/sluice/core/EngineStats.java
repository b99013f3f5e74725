package io.sluice.core;

/**
 * A snapshot of the engine's counters and gauges. Counters count since start; gauges are as of the snapshot.
 *
 * @param consumed       records handed to lanes
 * @param completed      records done (processed, skipped or dead-lettered)
 * @param failedAttempts attempts that threw, failed asynchronously or timed out
 * @param retried        attempts repeated after a failure
 * @param skipped        records given up and skipped
 * @param deadLettered   records given up and published to the dead-letter topic
 * @param timeouts       attempts that overran the processing timeout
 * @param revoked        partitions revoked from this member (cooperative rebalances move only these)
 * @param lost           partitions lost without a chance to commit (session expired)
 * @param commits        offset commits acknowledged
 * @param commitFailures offset commits that failed (the next interval commits the newer state)
 * @param queuedRecords  records queued or in flight (handed out and not yet done)
 * @param queuedBytes    bytes of records queued or in flight, as the memory budget counts them
 * @param budgetBytes    the memory budget
 * @param inFlight       records being processed now
 * @param pausedPartitions partitions not being fetched (backpressure, window or operator)
 * @param stuckPartitions partitions whose watermark has not moved for the stuck threshold with records pending
 * @param consumedBytes  bytes (keys, values, headers) of the records handed to lanes
 */
public record EngineStats(long consumed, long completed, long failedAttempts, long retried, long skipped,
        long deadLettered, long timeouts, long revoked, long lost, long commits, long commitFailures, long queuedRecords, long queuedBytes,
        long budgetBytes, long inFlight, int pausedPartitions, int stuckPartitions, long consumedBytes) {
}
