package io.sluice.cli.console;

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

    /**
     * A byte count as it was most likely given: in binary units ({@code 200 KiB}, {@code 1.50 MiB}) when it is a whole
     * number of KiB but not of kB, decimal ({@link #bytes}) otherwise, so that {@code --throttle 200KiB/s} is echoed as
     * {@code 200 KiB/s}, not as the {@code 205 kB/s} it also is (a new user's run).
     */
    public static String bytesAsGiven(long n) {
        if (n == 0 || n % 1024 != 0 || n % 1000 == 0) {
            return bytes(n);
        }
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
        double v = n;
        int unit = 0;
        while (Math.abs(v) >= 1023.5 && unit < units.length - 1) {
            v /= 1024;
            unit++;
        }
        return significant(v) + " " + units[unit];
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
}
