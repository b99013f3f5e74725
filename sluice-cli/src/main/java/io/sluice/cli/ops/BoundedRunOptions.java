package io.sluice.cli.ops;

import io.sluice.core.EngineConfig;
import io.sluice.core.TimestampStart;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The flags of a bounded run, for backfills and catch-up jobs: where to start by time, stopping at the end offsets
 * seen at start, and a read-rate limit. A picocli mixin: {@code @Mixin BoundedRunOptions bounds;} in a command, then
 * {@link #applyTo} on the engine's config builder.
 *
 * <p>Threading: filled by picocli, then read by the command's thread.
 */
public final class BoundedRunOptions {

    @Option(names = "--from", paramLabel = "TIME", converter = TimeConverter.class,
            description = "Start at the first record at or after TIME: 2026-11-20T00:00Z, 2026-11-20T01:00+01:00, or "
                    + "2026-11-20 for midnight UTC. By default only partitions the group has not committed.")
    Instant from;

    @Option(names = "--from-scope", paramLabel = "SCOPE", defaultValue = "UNCOMMITTED",
            description = "UNCOMMITTED (default): --from moves only partitions without a commit. ALWAYS: every "
                    + "partition, skipping forward past commits before TIME (a commit after it stands).")
    TimestampStart scope;

    @Option(names = "--until-end", description = "Stop by itself once everything up to the end offsets seen at "
            + "start is processed and committed.")
    boolean untilEnd;

    @Option(names = "--max-read-rate", paramLabel = "RATE", converter = RateConverter.class,
            description = "Read at most RATE from the brokers, e.g. 50MB/s, so a backfill does not starve other "
                    + "clients.")
    Long maxReadRate;

    /** Sets the bounds on {@code builder}; nothing when no flag was given. */
    public EngineConfig.Builder applyTo(EngineConfig.Builder builder) {
        if (from != null) {
            builder.startFrom(from, scope);
        }
        if (maxReadRate != null) {
            builder.maxReadBytesPerSecond(maxReadRate);
        }
        return builder.untilEnd(untilEnd);
    }

    /** Parses the forms {@code --from} accepts. */
    public static final class TimeConverter implements CommandLine.ITypeConverter<Instant> {
        @Override
        public Instant convert(String value) {
            String v = value.trim();
            try {
                if (v.length() == 10) {
                    return LocalDate.parse(v).atStartOfDay().toInstant(ZoneOffset.UTC);
                }
                return OffsetDateTime.parse(v.toUpperCase(java.util.Locale.ROOT)).toInstant();
            } catch (DateTimeParseException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a time: write "
                        + "2026-11-20T00:00Z, 2026-11-20T01:00+01:00 or 2026-11-20 (midnight UTC)");
            }
        }
    }

    /** Parses {@code 50MB/s} and the like. */
    public static final class RateConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Units.parseBytes(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
