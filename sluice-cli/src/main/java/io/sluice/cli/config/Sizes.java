package io.sluice.cli.config;

/**
 * Byte counts as settings write them: exact binary units ({@code 128MiB}). Figures for people are
 * {@link io.sluice.cli.console.Units#bytes}.
 *
 * <p>Stateless.
 */
public final class Sizes {

    private static final String[] BINARY = {"B", "KiB", "MiB", "GiB", "TiB"};

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
}
