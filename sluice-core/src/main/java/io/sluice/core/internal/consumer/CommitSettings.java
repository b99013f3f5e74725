package io.sluice.core.internal.consumer;

import java.time.Duration;

/**
 * How often progress is committed, and how long a synchronous commit (revoke, close) or a sink call waited for on
 * the consumer thread may take.
 */
public record CommitSettings(Duration interval, Duration timeout) {
}
