package io.sluice.cli.config;

import java.time.Duration;
import picocli.CommandLine;

/**
 * Picocli converters that read command-line values as pipeline files write them, through the same {@link Types}:
 * {@code --progress-every 30s} reads like {@code commit-interval: 30s}, {@code --max-read-rate 50MB/s} like
 * {@code max-read-rate: 50MB/s}. Messages say what is accepted.
 *
 * <p>Stateless.
 */
public final class OptionValues {

    private OptionValues() {
    }

    /** {@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h30m}, {@code 2d} or ISO-8601 ({@code PT10S}). */
    public static final class DurationValue implements CommandLine.ITypeConverter<Duration> {
        private static final ValueType<Duration> TYPE = Types.duration(Duration.ofMillis(1));

        @Override
        public Duration convert(String text) {
            return read(TYPE, text);
        }
    }

    /** Bytes per second, at least 1KiB/s: {@code 50MB/s}, {@code 512KiB/s}. */
    public static final class RateValue implements CommandLine.ITypeConverter<Long> {
        /** The engine's least read rate. */
        private static final ValueType<Long> TYPE = Types.rate(1024);

        @Override
        public Long convert(String text) {
            return read(TYPE, text);
        }
    }

    /** A byte count, at least 1 byte: {@code 500GB}, {@code 128MiB}. */
    public static final class SizeValue implements CommandLine.ITypeConverter<Long> {
        private static final ValueType<Long> TYPE = Types.size(1);

        @Override
        public Long convert(String text) {
            return read(TYPE, text);
        }
    }

    /** A TCP port, 0 to 65535 (0: any free one). */
    public static final class PortValue implements CommandLine.ITypeConverter<Integer> {
        private static final ValueType<Integer> TYPE = Types.integer(0, 65_535);

        @Override
        public Integer convert(String text) {
            return read(TYPE, text);
        }
    }

    private static <T> T read(ValueType<T> type, String text) {
        try {
            return type.parse(Value.Scalar.builtIn(text));
        } catch (ValueType.InvalidValue e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
