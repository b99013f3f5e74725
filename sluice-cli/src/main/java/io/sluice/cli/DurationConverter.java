package io.sluice.cli;

import io.sluice.cli.config.Types;
import io.sluice.cli.config.Value;
import io.sluice.cli.config.ValueType;
import java.time.Duration;
import picocli.CommandLine;

/** Reads durations on the command line as pipeline files write them: {@code 30s}, {@code 5m}. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {

    private static final ValueType<Duration> TYPE = Types.duration(Duration.ofMillis(1));

    @Override
    public Duration convert(String text) throws Exception {
        try {
            return TYPE.parse(Value.Scalar.builtIn(text));
        } catch (ValueType.InvalidValue e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
