package io.sluice.core;

/**
 * The engine's failure when its drain ended without its last commit because the sink could not finish what it held
 * ({@link io.sluice.core.sink.Sink#unableToFinish}: its destination did not answer). Nothing was lost: what was not
 * committed is processed again after a restart, exactly once where the commit point makes it so. A command stopped by
 * its user may count such a stop as done, saying what was left uncommitted and why.
 */
public final class DrainAbandonedException extends IllegalStateException {

    private final String why;

    /** @param why what the sink said, in words */
    public DrainAbandonedException(String why) {
        super("stopped without the last commit: " + why + "; what was read since the last commit is processed again "
                + "at the next start");
        this.why = why;
    }

    /** Why the sink could not finish, in its words. */
    public String why() {
        return why;
    }
}
