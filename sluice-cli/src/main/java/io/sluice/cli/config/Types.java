package io.sluice.cli.config;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The value types of pipeline keys. Sizes and durations are written as people write them ({@code 128MiB}, {@code 10s});
 * names of choices are lower case with dashes ({@code at-least-once}).
 *
 * <p>Every type is immutable and thread-safe.
 */
public final class Types {

    private Types() {
    }

    /** A non-blank text. */
    public static final ValueType<String> STRING = new ScalarType<>("a text") {
        @Override
        String read(Value.Scalar s) throws ValueType.InvalidValue {
            if (s.text().isBlank()) {
                throw new ValueType.InvalidValue("is empty" + (s.variables() == null ? "" : " (from " + s.variables()
                        + ")") + "; give a value or remove the key");
            }
            return s.text();
        }
    };

    /** A password, key or JAAS text; any text is accepted and none is ever quoted. */
    public static final ValueType<Secret> SECRET = new ScalarType<>("a text (secret)") {
        @Override
        Secret read(Value.Scalar s) {
            return new Secret(s.text());
        }
    };

    public static final ValueType<Boolean> BOOLEAN = new ScalarType<>("true or false") {
        @Override
        Boolean read(Value.Scalar s) throws ValueType.InvalidValue {
            String t = s.text().trim().toLowerCase(Locale.ROOT);
            if (t.equals("true") || t.equals("false")) {
                return Boolean.valueOf(t);
            }
            throw new ValueType.InvalidValue(s.quoted() + " is not true or false");
        }

        @Override
        public boolean isChoice() {
            return true;
        }
    };

    /** A time zone id such as {@code UTC} or {@code Europe/Berlin}. */
    public static final ValueType<ZoneId> ZONE = new ScalarType<>("a time zone, e.g. UTC or Europe/Berlin") {
        @Override
        ZoneId read(Value.Scalar s) throws ValueType.InvalidValue {
            try {
                return ZoneId.of(s.text().trim());
            } catch (DateTimeException e) {
                throw new ValueType.InvalidValue(s.quoted() + " is not a time zone"
                        + Suggestions.didYouMean(s.text().trim(), ZoneId.getAvailableZoneIds()));
            }
        }
    };

    /** A Java regular expression. */
    public static final ValueType<Pattern> REGEX = new ScalarType<>("a regular expression") {
        @Override
        Pattern read(Value.Scalar s) throws ValueType.InvalidValue {
            try {
                return Pattern.compile(s.text());
            } catch (PatternSyntaxException e) {
                throw new ValueType.InvalidValue(s.quoted() + " is not a regular expression: " + e.getDescription()
                        + " near character " + e.getIndex());
            }
        }
    };

    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([kmgt]i?b|b)?", Pattern.CASE_INSENSITIVE);
    private static final Map<String, Long> SIZE_UNITS = Map.of("b", 1L,
            "kb", 1000L, "mb", 1000L * 1000, "gb", 1000L * 1000 * 1000, "tb", 1000L * 1000 * 1000 * 1000,
            "kib", 1L << 10, "mib", 1L << 20, "gib", 1L << 30, "tib", 1L << 40);

    /** Bytes: {@code 1048576}, {@code 128MiB} (powers of 1024) or {@code 100MB} (powers of 1000). */
    public static ValueType<Long> size(long min) {
        return new ScalarType<>("a size, e.g. 128MiB or 1GB" + (min > 1 ? ", at least " + Sizes.format(min) : "")) {
            @Override
            Long read(Value.Scalar s) throws ValueType.InvalidValue {
                Matcher m = SIZE.matcher(s.text().trim());
                if (!m.matches()) {
                    throw new ValueType.InvalidValue(s.quoted() + " is not a size; write it like 128MiB, 1GB or "
                            + "1048576 (bytes)");
                }
                long unit = m.group(2) == null ? 1 : SIZE_UNITS.get(m.group(2).toLowerCase(Locale.ROOT));
                long bytes;
                try {
                    bytes = Math.multiplyExact(Long.parseLong(m.group(1)), unit);
                } catch (ArithmeticException | NumberFormatException e) {
                    throw new ValueType.InvalidValue(s.quoted() + " is too large");
                }
                if (bytes < min) {
                    throw new ValueType.InvalidValue(s.quoted() + " is too small; the least is " + Sizes.format(min)
                            + (m.group(2) == null ? " (a number without a unit counts bytes: " + m.group(1)
                                    + "MiB is " + m.group(1) + " mebibytes)" : ""));
                }
                return bytes;
            }
        };
    }

    /**
     * Bytes per second: a size with an optional {@code /s}, {@code 50MB/s} or {@code 50MB}; at least {@code min}.
     */
    public static ValueType<Long> rate(long min) {
        ValueType<Long> size = size(min);
        return new ScalarType<>("a rate in bytes per second, e.g. 50MB/s, at least " + Sizes.format(min) + "/s") {
            @Override
            Long read(Value.Scalar s) throws ValueType.InvalidValue {
                String text = s.text().trim();
                String amount = text.endsWith("/s") ? text.substring(0, text.length() - 2) : text;
                refuseBits(s, amount);
                try {
                    return size.parse(new Value.Scalar(amount, false, s.variables(), s.position()));
                } catch (ValueType.InvalidValue e) {
                    // a rate under the least was called "not a rate" (a new user's 1B/s)
                    boolean small = String.valueOf(e.getMessage()).contains(" is too small");
                    throw new ValueType.InvalidValue(s.quoted() + (small ? " is below the least rate, "
                            + Sizes.format(min) + "/s" : String.valueOf(e.getMessage()).contains(" is too large")
                            ? " is too large" : " is not a rate; write it like 50MB/s or 512KiB/s, at least "
                            + Sizes.format(min) + "/s"));
                }
            }
        };
    }

    /**
     * A rate's unit with a lowercase b ({@code 50mb/s}, {@code 50Mb/s}) is refused: in a rate it often means bits
     * (network links are sold in Mb/s), and a replication throttle read as eight times what was meant floods the disks
     * it is there to spare (a new user's run wrote {@code --throttle 50mb/s}). The size type reads units either way.
     */
    private static void refuseBits(Value.Scalar s, String amount) throws ValueType.InvalidValue {
        Matcher m = SIZE.matcher(amount.trim());
        if (!m.matches() || m.group(2) == null || !m.group(2).endsWith("b")) {
            return;
        }
        long bits;
        try {
            bits = Math.multiplyExact(Long.parseLong(m.group(1)), SIZE_UNITS.get(m.group(2).toLowerCase(Locale.ROOT)));
        } catch (ArithmeticException | NumberFormatException e) {
            return; // too large either way: the size type says so
        }
        String unit = m.group(2).substring(0, m.group(2).length() - 1);
        throw new ValueType.InvalidValue(s.quoted() + " is ambiguous: a lowercase b in a rate often means bits. Rates "
                + "here are bytes per second: write " + m.group(1) + unit.toUpperCase(Locale.ROOT).replace("I", "i")
                + "B/s for bytes" + (unit.isEmpty() ? "" : ", or " + decimal(bits / 8) + "/s for " + m.group(1)
                + " " + BITS.get(unit.toLowerCase(Locale.ROOT)) + " a second"));
    }

    private static final Map<String, String> BITS = Map.of("k", "kilobits", "m", "megabits", "g", "gigabits",
            "t", "terabits", "ki", "kibibits", "mi", "mebibits", "gi", "gibibits", "ti", "tebibits");

    /** Bytes in the largest decimal unit that holds them whole: {@code 6250KB}, {@code 6MB}, {@code 125B}. */
    private static String decimal(long bytes) {
        String[] units = {"B", "KB", "MB", "GB", "TB"};
        int i = 0;
        while (i < units.length - 1 && bytes > 0 && bytes % 1000 == 0) {
            bytes /= 1000;
            i++;
        }
        return bytes + units[i];
    }

    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

    /** A duration: {@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h30m}, {@code 2d}, or ISO-8601 {@code PT10S}. */
    public static ValueType<Duration> duration(Duration min) {
        return new ScalarType<>("a duration, e.g. 500ms, 10s, 5m or 1h30m") {
            @Override
            Duration read(Value.Scalar s) throws ValueType.InvalidValue {
                Duration d = parseDuration(s.text().trim());
                if (d == null) {
                    throw new ValueType.InvalidValue(s.quoted() + " is not a duration; write it like 500ms, 10s, 5m, "
                            + "1h or 1h30m");
                }
                if (d.compareTo(min) < 0) {
                    throw new ValueType.InvalidValue(s.quoted() + " is too short; the least is "
                            + Durations.format(min));
                }
                return d;
            }
        };
    }

    static Duration parseDuration(String text) {
        if (text.startsWith("P") || text.startsWith("p")) {
            try {
                return Duration.parse(text);
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        Matcher m = DURATION_PART.matcher(text);
        Duration total = Duration.ZERO;
        int end = 0;
        while (m.find() && m.start() == end) {
            long n = Long.parseLong(m.group(1));
            total = total.plus(switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            });
            end = m.end();
        }
        return end == text.length() && end > 0 ? total : null;
    }

    /** A whole number from {@code min} to {@code max}; {@code _} may group digits ({@code 10_000_000}). */
    public static ValueType<Integer> integer(int min, int max) {
        return mapped(count(min, max), Long::intValue);
    }

    /** Like {@link #integer} for counts beyond int. */
    public static ValueType<Long> count(long min, long max) {
        return new ScalarType<>("a whole number from " + min + " to " + max) {
            @Override
            Long read(Value.Scalar s) throws ValueType.InvalidValue {
                long n;
                try {
                    n = Long.parseLong(s.text().trim().replace("_", ""));
                } catch (NumberFormatException e) {
                    throw new ValueType.InvalidValue(s.quoted() + " is not a whole number");
                }
                if (n < min || n > max) {
                    throw new ValueType.InvalidValue(s.quoted() + " is out of range; expected " + min + " to " + max);
                }
                return n;
            }
        };
    }

    /** One of {@code names}, exactly as listed. */
    public static ValueType<String> oneOf(List<String> names) {
        List<String> copy = List.copyOf(names);
        return new ScalarType<>("one of " + String.join(", ", copy)) {
            @Override
            String read(Value.Scalar s) throws ValueType.InvalidValue {
                String t = s.text().trim();
                if (copy.contains(t)) {
                    return t;
                }
                throw new ValueType.InvalidValue(s.quoted() + " is not one of " + String.join(", ", copy)
                        + Suggestions.didYouMean(t, copy));
            }

            @Override
            public boolean isChoice() {
                return true;
            }
        };
    }

    /** A constant of {@code type}, written as {@link #name} writes it. */
    public static <E extends Enum<E>> ValueType<E> choice(Class<E> type) {
        Map<String, E> byName = new LinkedHashMap<>();
        for (E e : type.getEnumConstants()) {
            byName.put(name(e), e);
        }
        return mapped(oneOf(List.copyOf(byName.keySet())), byName::get);
    }

    /** A constant as a file writes it: in lower case with dashes, {@code DEAD_LETTER} is {@code dead-letter}. */
    public static String name(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Texts: a YAML list, or one value with commas ({@code a,b}), so one environment variable can hold a list. */
    public static final ValueType<List<String>> LIST = new ValueType<>() {
        @Override
        public String describe() {
            return "a list of texts (or one text with commas)";
        }

        @Override
        public List<String> parse(Value value) throws ValueType.InvalidValue {
            List<String> items = new ArrayList<>();
            if (value instanceof Value.Sequence seq) {
                for (Value item : seq.items()) {
                    if (!(item instanceof Value.Scalar s) || s.nul()) {
                        throw new ValueType.InvalidValue("item at line " + item.position().line() + " is "
                                + item.kind() + "; expected a text");
                    }
                    addItems(s.text(), items);
                }
            } else if (value instanceof Value.Scalar s && !s.nul()) {
                addItems(s.text(), items);
            } else {
                throw new ValueType.InvalidValue("expected " + describe() + ", got " + value.kind());
            }
            if (items.isEmpty()) {
                throw new ValueType.InvalidValue("is an empty list");
            }
            return List.copyOf(items);
        }
    };

    private static void addItems(String text, List<String> items) {
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                items.add(part.trim());
            }
        }
    }

    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9a-fA-F:.]+\\]|[^:\\s\\[\\]]+):(\\d{1,5})");

    /** {@code host:port} addresses, as {@link #LIST}. */
    public static final ValueType<List<String>> HOST_PORTS = new ValueType<>() {
        @Override
        public String describe() {
            return "a list of host:port (or one text with commas)";
        }

        @Override
        public List<String> parse(Value value) throws ValueType.InvalidValue {
            List<String> addresses = LIST.parse(value);
            for (String address : addresses) {
                Matcher m = HOST_PORT.matcher(address);
                if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
                    throw new ValueType.InvalidValue("'" + address + "' is not host:port, e.g. broker1:9092");
                }
            }
            return addresses;
        }
    };

    /** A name and its text from a section of free-form settings, with their positions. */
    public record Property(String name, String text, Position keyPosition, Position valuePosition) {
    }

    /** Free-form settings (Kafka or Hadoop properties): names as their owner spells them, single values. */
    public static final ValueType<List<Property>> PROPERTIES = new ValueType<>() {
        @Override
        public String describe() {
            return "a section of name: value settings";
        }

        @Override
        public List<Property> parse(Value value) throws ValueType.InvalidValue {
            if (value instanceof Value.Scalar s && s.nul()) {
                return List.of();
            }
            if (!(value instanceof Value.Mapping mapping)) {
                throw new ValueType.InvalidValue("expected " + describe() + ", got " + value.kind());
            }
            List<Property> properties = new ArrayList<>();
            for (Value.Entry e : mapping.entries()) {
                if (e.value() instanceof Value.Broken) {
                    continue;
                }
                if (!(e.value() instanceof Value.Scalar s) || s.nul()) {
                    throw new ValueType.InvalidValue("'" + e.key() + "' at line " + e.keyPosition().line() + " is "
                            + e.value().kind() + "; each setting takes a single value");
                }
                properties.add(new Property(e.key(), s.text(), e.keyPosition(), s.position()));
            }
            return List.copyOf(properties);
        }
    };

    /** {@code base}, its values turned into another type (as written, so described as {@code base}). */
    private static <A, B> ValueType<B> mapped(ValueType<A> base, java.util.function.Function<A, B> convert) {
        return new ValueType<>() {
            @Override
            public String describe() {
                return base.describe();
            }

            @Override
            public B parse(Value value) throws ValueType.InvalidValue {
                return convert.apply(base.parse(value));
            }

            @Override
            public boolean isChoice() {
                return base.isChoice();
            }
        };
    }

    /** A type whose values are single values; a list, a section or nothing is reported the same way for each. */
    private abstract static class ScalarType<T> implements ValueType<T> {
        private final String description;

        ScalarType(String description) {
            this.description = description;
        }

        @Override
        public String describe() {
            return description;
        }

        @Override
        public T parse(Value value) throws ValueType.InvalidValue {
            if (value instanceof Value.Scalar s && !s.nul()) {
                return read(s);
            }
            throw new ValueType.InvalidValue("expected " + description + ", got " + value.kind());
        }

        abstract T read(Value.Scalar s) throws ValueType.InvalidValue;
    }
}
