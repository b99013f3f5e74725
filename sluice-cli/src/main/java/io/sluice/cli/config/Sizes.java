package io.sluice.cli.config;

import java.util.Locale;

/**
 * Byte counts as people read them: exact binary units for settings ({@code 128MiB}), and rounded decimal units for
 * figures ({@code 41.2 MB}).
 *
 * <p>Stateless.
 */
public final class Sizes {

    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB"};
    private static final String[] DECIMAL = {"B", "kB", "MB", "GB", "TB"};

    private Sizes() {
    }

    /** The largest binary unit that divides {@code bytes} exactly: 134217728 is {@code 128MiB}, 1000 is {@code 1000B}. */
    public static String format(long bytes) {
        int unit = 0;
        long n = bytes;
        while (unit < BINARY.length - 1 && n != 0 && n % 1024 == 0) {
            n /= 1024;
            unit++;
        }
        return n + BINARY[unit];
    }

    /** Rounded, in powers of 1000: {@code 41.2 MB}. */
    public static String human(double bytes) {
        int unit = 0;
        double n = bytes;
        while (unit < DECIMAL.length - 1 && Math.abs(n) >= 1000) {
            n /= 1000;
            unit++;
        }
        return unit == 0 ? String.format(Locale.ROOT, "%.0f B", n) : String.format(Locale.ROOT, "%.1f %s", n, DECIMAL[unit]);
    }
}
