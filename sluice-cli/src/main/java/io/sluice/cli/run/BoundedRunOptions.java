package io.sluice.cli.run;

import io.sluice.cli.config.OptionValues;
import io.sluice.core.EngineConfig;
import io.sluice.core.TimestampStart;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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

    @Option(names = "--from-scope", paramLabel = "SCOPE",
            description = "UNCOMMITTED (default): --from moves only partitions without a commit. ALWAYS: every "
                    + "partition, skipping forward past commits before TIME (a commit after it stands).")
    TimestampStart scope;

    /** The command using these flags, for its usage message. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--until-end", description = "Stop by itself once everything up to the end offsets seen at "
            + "start is processed and committed.")
    boolean untilEnd;

    @Option(names = "--max-read-rate", paramLabel = "RATE", converter = OptionValues.RateValue.class,
            description = "Read at most RATE from the brokers, e.g. 50MB/s, so a backfill does not starve other "
                    + "clients (instead of the pipeline's source.max-read-rate).")
    Long maxReadRate;

    /** Sets the bounds on {@code builder}, over what the pipeline set; nothing when no flag was given. */
    public EngineConfig.Builder applyTo(EngineConfig.Builder builder) {
        if (from != null) {
            Instant now = Instant.now();
            if (from.isAfter(now)) {
                // refused here in the command's words: the engine's own refusal came out as a Java exception, with
                // exit status 1 and an API name for its advice (a new user's run)
                throw new CommandLine.ParameterException(command.commandLine(), "--from " + from + " is in the future "
                        + "(it is " + now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + " now): no record is "
                        + "that recent. Give a time in the past, or leave --from out: partitions the group has not "
                        + "committed then start where source.start says (earliest or latest)");
            }
            builder.startFrom(from, scope == null ? TimestampStart.UNCOMMITTED : scope);
        } else if (scope != null) {
            throw new CommandLine.ParameterException(command.commandLine(), "--from-scope " + scope + " needs --from "
                    + "TIME: it says which partitions --from moves, and without it no partition moves");
        }
        if (maxReadRate != null) {
            builder.maxReadBytesPerSecond(maxReadRate);
        }
        if (untilEnd) {
            builder.untilEnd(true);
        }
        return builder;
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
}
