package io.sluice.testkit;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Unique topic, group and bucket names, so that tests can share one broker or one S3 server without seeing each
 * other's data.
 */
public final class Names {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    private Names() {
    }

    /** A name such as {@code orders-7-k3f9q}: the prefix, a sequence number and a random suffix. */
    public static String unique(String prefix) {
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
        return prefix + "-" + SEQUENCE.incrementAndGet() + "-" + suffix;
    }
}
