package io.sluice.storage.rolling;

import java.time.Duration;

/**
 * When a partition's open files are sealed: when any of them reaches {@code maxBytes} (compressed, as written) or
 * {@code maxRecords}, when the oldest has been open {@code maxAge} (checked at every commit interval too, so an idle
 * partition still rolls), or when the partition has {@code maxOpenFiles} open and needs one more. All open files of
 * a partition roll together, at one offset. {@link RollDecision} applies these limits.
 */
public record RollingPolicy(long maxBytes, long maxRecords, Duration maxAge, int maxOpenFiles) {

    public RollingPolicy {
        if (maxBytes < 1 || maxRecords < 1 || maxAge.isNegative() || maxAge.isZero() || maxOpenFiles < 1) {
            throw new IllegalArgumentException("rolling limits must be positive: " + maxBytes + " bytes, " + maxRecords
                    + " records, " + maxAge + ", " + maxOpenFiles + " open files");
        }
    }

    /** 128 MiB, 10 million records, 10 minutes, 64 open files per partition (two days of hours and the current one). */
    public static RollingPolicy defaults() {
        return new RollingPolicy(128L * 1024 * 1024, 10_000_000, Duration.ofMinutes(10), 64);
    }
}
