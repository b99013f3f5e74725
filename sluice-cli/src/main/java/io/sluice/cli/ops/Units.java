package io.sluice.cli.ops;

import java.time.Duration;
import java.util.Locale;

/**
 * How numbers read on a terminal: grouped counts, decimal byte sizes (1 MB = 1,000,000 bytes, as network rates are
 * quoted), compact rates and durations a person reads at a glance.
 *
 * <p>Threading: stateless.
 */
public final class Units {

    private Units() {
    }

    /** {@code 1,234,567}. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** {@code 512 B}, {@code 1.5 kB}, {@code 23 MB}, {@code 4.10 GB}: three significant digits. */
    public static String bytes(double n) {
        String[] units = {"B", "kB", "MB", "GB", "TB", "PB"};
        int unit = 0;
        while (Math.abs(n) >= 999.5 && unit < units.length - 1) {
            n /= 1000;
            unit++;
        }
        return unit == 0 ? String.format(Locale.ROOT, "%.0f B", n) : significant(n) + " " + units[unit];
    }

    /** A rate with a compact magnitude and three significant digits: {@code 0.50}, {@code 950}, {@code 12.3K}. */
    public static String compact(double n) {
        String[] suffixes = {"", "K", "M", "G"};
        int s = 0;
        while (Math.abs(n) >= 999.5 && s < suffixes.length - 1) {
            n /= 1000;
            s++;
        }
        return significant(n) + suffixes[s];
    }

    private static String significant(double n) {
        double a = Math.abs(n);
        return String.format(Locale.ROOT, a >= 99.95 ? "%.0f" : a >= 9.995 ? "%.1f" : "%.2f", n);
    }

    /** {@code 45 s}, {@code 3 min 20 s}, {@code 1 h 17 min}, {@code 2 d 3 h}; under a second is {@code <1 s}. */
    public static String duration(Duration d) {
        long s = d.getSeconds();
        if (s < 1) {
            return "<1 s";
        }
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return pair(s / 60, "min", s % 60, "s");
        }
        if (s < 86_400) {
            return pair(s / 3600, "h", s % 3600 / 60, "min");
        }
        return pair(s / 86_400, "d", s % 86_400 / 3600, "h");
    }

    private static String pair(long major, String majorUnit, long minor, String minorUnit) {
        return minor == 0 ? major + " " + majorUnit : major + " " + majorUnit + " " + minor + " " + minorUnit;
    }

    /**
     * Parses a byte count or rate: {@code 1048576}, {@code 512kB}, {@code 50MB}, {@code 2GiB}, with an optional
     * {@code /s}. kB, MB and GB are powers of 1000; KiB, MiB and GiB powers of 1024.
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static long parseBytes(String text) {
        String t = text.trim();
        if (t.endsWith("/s")) {
            t = t.substring(0, t.length() - 2).trim();
        }
        int split = 0;
        while (split < t.length() && (Character.isDigit(t.charAt(split)) || t.charAt(split) == '.')) {
            split++;
        }
        try {
            double amount = Double.parseDouble(t.substring(0, split));
            long unit = switch (t.substring(split).trim().toLowerCase(Locale.ROOT)) {
                case "", "b" -> 1;
                case "kb" -> 1_000;
                case "mb" -> 1_000_000;
                case "gb" -> 1_000_000_000;
                case "kib" -> 1L << 10;
                case "mib" -> 1L << 20;
                case "gib" -> 1L << 30;
                default -> throw new IllegalArgumentException();
            };
            return Math.round(amount * unit);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a byte size: write a number and a unit (B, kB, "
                    + "MB, GB, KiB, MiB, GiB), e.g. 50MB/s");
        }
    }

    /**
     * Parses {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}, {@code 2d} or ISO-8601 ({@code PT1H30M}).
     *
     * @throws IllegalArgumentException saying what is accepted
     */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            int split = 0;
            while (split < t.length() && (Character.isDigit(t.charAt(split)) || t.charAt(split) == '.')) {
                split++;
            }
            double amount = Double.parseDouble(t.substring(0, split));
            String unit = t.substring(split).trim();
            long millis = switch (unit) {
                case "ms" -> 1;
                case "s", "sec" -> 1_000;
                case "m", "min" -> 60_000;
                case "h" -> 3_600_000;
                case "d" -> 86_400_000;
                default -> throw new IllegalArgumentException(unit);
            };
            return Duration.ofMillis(Math.round(amount * millis));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is not a duration: write a number and a unit (500ms, "
                    + "30s, 5m, 1h, 2d) or ISO-8601 (PT1H30M)");
        }
    }
}
