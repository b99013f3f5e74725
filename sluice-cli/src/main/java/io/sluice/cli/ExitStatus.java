package io.sluice.cli;

/** The command's exit statuses. */
public final class ExitStatus {

    /** Done, or drained cleanly after SIGTERM / Ctrl-C. */
    public static final int OK = 0;
    /** Something outside the command line and the pipeline file failed: brokers, storage, a record, a bug. */
    public static final int FAILURE = 1;
    /** Bad usage or a bad pipeline file; nothing was started. */
    public static final int USAGE = 2;
    /**
     * {@code sluice produce}: it ran to its end (or drained after a signal), but some input records were not
     * acknowledged: they failed (the summary lists the first, with file and line) or their outcome is unknown.
     */
    public static final int SOME_RECORDS_FAILED = 3;
    /**
     * Stopped at once by a second Ctrl-C, without draining (the shells' 128 + SIGINT); also {@code sluice produce}
     * stopped by a first Ctrl-C before the end of its input, after draining what it had read.
     */
    public static final int INTERRUPTED = 130;
    /** {@code sluice produce} stopped by SIGTERM before the end of its input, after draining (128 + SIGTERM). */
    public static final int TERMINATED = 143;

    private ExitStatus() {
    }
}
