package io.sluice.core.internal.consumer;

import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.StartPosition;
import io.sluice.core.TimestampStart;
import java.time.Duration;
import java.time.Instant;

/**
 * Where a newly assigned partition starts, and how far ahead of its oldest unfinished record it may run.
 *
 * @param startTimestamp null unless the run starts from a time
 * @param timeout        for the calls made while partitions are assigned
 */
public record StartSettings(StartPosition startPosition, OutOfRangePolicy outOfRange, Instant startTimestamp,
        TimestampStart timestampStart, int window, Duration timeout) {
}
