package io.sluice.cli.run;

import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Units;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * The pause before a service command ({@code sluice mirror}, {@code sluice merge}, {@code sluice run}) starts its work again after a
 * failure a new start cures ({@link TransientFailure}): 5 s, doubling up to a minute while the trouble goes on, and 5 s
 * again after a run that went well for five minutes, or that made progress (a new trouble, not the same one: two
 * instances fencing each other in turn waited 40 s after runs that had copied for half a minute, a chaos run). A
 * signal in the pause or in the start after it ends the command, saying that nothing is lost: the run's own handlers
 * supersede those once it runs.
 *
 * <p>Threading: one controlling thread.
 */
public final class RestartPause {

    static final Duration FIRST = Duration.ofSeconds(5);
    static final Duration LONGEST = Duration.ofMinutes(1);
    private static final Duration RAN_WELL = LONGEST.multipliedBy(5);

    private final String command;
    private final String what;
    private final Consumer<String> say;
    private Duration next = FIRST;
    /** From a pause until the next run's own handlers end: a signal meanwhile exits. */
    private ShutdownSignals starting;

    /**
     * @param command the command as the user typed it, e.g. "sluice mirror"
     * @param what    what starts again, e.g. "the mirror"
     * @param say     where the pause is said (the run's log)
     */
    public RestartPause(String command, String what, Consumer<String> say) {
        this.command = command;
        this.what = what;
        this.say = say;
    }

    /** Whether a pause came before the start under way: then a start that fails is one more try, not the command's. */
    public boolean restarting() {
        return starting != null;
    }

    /** The start after a pause has run (or failed): its own signal handlers take over from the pause's. */
    public void started() {
        if (starting != null) {
            starting.close();
            starting = null;
        }
    }

    /**
     * Says the pause and waits it out; the next one is twice as long.
     *
     * @param ran how long the run before it went on, or null when it did not start
     */
    public void await(Duration ran) throws RunFailure {
        await(ran, false);
    }

    /**
     * As {@link #await(Duration)}, after a run that {@code madeProgress} (committed work) or not: one that did starts
     * the pauses from the first again.
     */
    public void await(Duration ran, boolean madeProgress) throws RunFailure {
        Duration pause = next(ran, madeProgress);
        say.accept("starting " + what + " again in " + Units.duration(pause) + " (Ctrl-C stops it)");
        starting = ShutdownSignals.whileStarting(command, say);
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            started();
            throw new RunFailure("interrupted while waiting to start " + what + " again", e);
        }
    }

    /** The pause after a run as {@link #await(Duration, boolean)} takes it; the one after it is twice as long. */
    Duration next(Duration ran, boolean madeProgress) {
        if (madeProgress || ran != null && ran.compareTo(RAN_WELL) > 0) {
            next = FIRST;
        }
        Duration pause = next;
        next = next.multipliedBy(2).compareTo(LONGEST) > 0 ? LONGEST : next.multipliedBy(2);
        return pause;
    }
}
