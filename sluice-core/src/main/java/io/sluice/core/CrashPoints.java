package io.sluice.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named steps of the engine's protocols where a test can make the JVM halt, as {@code kill -9} would, to prove that
 * a crash at that exact step loses nothing: {@code -Dsluice.crash.at=<name>:<n>} halts the n-th time the step is
 * reached (n defaults to 1). Without the property every check is a read of a static final field.
 *
 * <p>Threading: safe from any thread.
 */
public final class CrashPoints {

    /** A poll's records are in lanes; none of them is done. */
    public static final String AFTER_DISPATCH = "poll.after-dispatch";
    /** A completion reached the ledger; it is not committed. */
    public static final String AFTER_COMPLETION = "completion.after-ledger";
    /** An interval commit is computed but not sent. */
    public static final String BEFORE_COMMIT = "commit.before-request";
    /** An interval commit is sent; its acknowledgement is not processed. */
    public static final String AFTER_COMMIT_REQUEST = "commit.after-request";
    /** An interval commit was acknowledged. */
    public static final String AFTER_COMMIT_ACK = "commit.after-ack";
    /** Closing: records in flight are finished; the final commit is not sent. */
    public static final String CLOSE_BEFORE_COMMIT = "close.before-commit";
    /** Closing: the final commit is acknowledged; the consumer is not closed. */
    public static final String CLOSE_AFTER_COMMIT = "close.after-commit";

    /** Exit status of a halt at a crash point, so a test can tell it from other deaths. */
    public static final int HALT_STATUS = 86;

    private static final String TARGET;
    private static final int HIT;
    private static final AtomicInteger HITS = new AtomicInteger();

    static {
        String spec = System.getProperty("sluice.crash.at");
        if (spec == null || spec.isBlank()) {
            TARGET = null;
            HIT = 0;
        } else {
            int colon = spec.lastIndexOf(':');
            TARGET = colon < 0 ? spec : spec.substring(0, colon);
            HIT = colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1));
        }
    }

    private CrashPoints() {
    }

    /** Halts the JVM here if this is the configured point and hit. */
    public static void reach(String point) {
        if (TARGET != null && TARGET.equals(point) && HITS.incrementAndGet() == HIT) {
            System.err.println("[sluice] crash point " + point + ":" + HIT + " reached; halting");
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }
}
