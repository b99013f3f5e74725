package io.sluice.core.crash;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named steps of the engine's protocols where a test can make the JVM halt, as {@code kill -9} would, to prove that
 * a crash at that exact step loses nothing: {@code -Dsluice.crash.at=<name>:<n>} halts the n-th time the step is
 * reached (n defaults to 1). Without the properties every check is a read of static final fields.
 *
 * <p>{@code -Dsluice.pause.at=<name>:<n>} with {@code -Dsluice.pause.until=<file>} instead holds the thread that
 * reaches the step: it prints {@code SLUICE-PAUSED <name>} and waits until the file exists. A test then freezes the
 * whole process (SIGSTOP) at that exact step, to play a zombie that resumes there later.
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

    /** A target transaction holds the records and the source offsets; it is not committed. */
    public static final String TRANSACTION_BEFORE_COMMIT = "transaction.before-commit";

    /** Dead letters are sent in the transaction of a commit; its offsets are not added yet. */
    public static final String DEAD_LETTER_AFTER_SEND = "deadletter.after-send";
    /** A commit's transaction holds its dead letters and the offsets; it is not committed. */
    public static final String DEAD_LETTER_BEFORE_COMMIT = "deadletter.before-commit";

    /** Exit status of a halt at a crash point, so a test can tell it from other deaths. */
    public static final int HALT_STATUS = 86;

    /** Printed on standard output when a thread pauses at a step. */
    public static final String PAUSED = "SLUICE-PAUSED ";

    private static final String TARGET;
    private static final int HIT;
    private static final AtomicInteger HITS = new AtomicInteger();
    private static final String PAUSE_TARGET;
    private static final int PAUSE_HIT;
    private static final Path PAUSE_UNTIL;
    private static final AtomicInteger PAUSE_HITS = new AtomicInteger();

    static {
        String spec = System.getProperty("sluice.crash.at");
        TARGET = name(spec);
        HIT = hit(spec);
        String pause = System.getProperty("sluice.pause.at");
        PAUSE_TARGET = name(pause);
        PAUSE_HIT = hit(pause);
        String until = System.getProperty("sluice.pause.until");
        if (PAUSE_TARGET != null && (until == null || until.isBlank())) {
            throw new IllegalArgumentException("-Dsluice.pause.at needs -Dsluice.pause.until=<file>: the paused thread "
                    + "goes on once that file exists");
        }
        PAUSE_UNTIL = PAUSE_TARGET == null ? null : Path.of(until);
    }

    private CrashPoints() {
    }

    /** Halts the JVM (or holds this thread) here if this is the configured point and hit. */
    public static void reach(String point) {
        if (TARGET != null && TARGET.equals(point) && HITS.incrementAndGet() == HIT) {
            System.err.println("[sluice] crash point " + point + ":" + HIT + " reached; halting");
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
        if (PAUSE_TARGET != null && PAUSE_TARGET.equals(point) && PAUSE_HITS.incrementAndGet() == PAUSE_HIT) {
            pause(point);
        }
    }

    private static void pause(String point) {
        System.out.println(PAUSED + point);
        System.out.flush();
        while (!Files.exists(PAUSE_UNTIL)) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static String name(String spec) {
        if (spec == null || spec.isBlank()) {
            return null;
        }
        int colon = spec.lastIndexOf(':');
        return colon < 0 ? spec : spec.substring(0, colon);
    }

    private static int hit(String spec) {
        if (spec == null || spec.isBlank()) {
            return 0;
        }
        int colon = spec.lastIndexOf(':');
        return colon < 0 ? 1 : Integer.parseInt(spec.substring(colon + 1));
    }
}
