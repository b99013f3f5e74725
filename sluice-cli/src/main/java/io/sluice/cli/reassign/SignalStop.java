package io.sluice.cli.reassign;

import io.sluice.cli.console.Console;
import io.sluice.cli.run.ShutdownSignals;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Ctrl-C or SIGTERM while {@code execute} or {@code resume} runs: there is nothing of the command's own to drain (the
 * moves are the cluster's, and every change is journaled before it is made), so it stops at once, saying what it
 * leaves set and how to finish or undo the run, and exits with 128 + the signal's number. It exited without a word
 * before, leaving the run's throttles and retention guard on the brokers with nothing to say so.
 *
 * <p>Threading: the JVM's signal thread runs the stop; {@link #close} from the command's thread.
 */
final class SignalStop implements AutoCloseable {

    private final ShutdownSignals signals;

    private SignalStop(ShutdownSignals signals) {
        this.signals = signals;
    }

    static SignalStop install(Console console, Path journal) {
        AtomicReference<ShutdownSignals> installed = new AtomicReference<>();
        Runnable stop = () -> {
            console.clearStatus();
            console.say("sluice reassign: " + ResumeHint.afterSignal(journal));
            ShutdownSignals signals = installed.get();
            System.exit(signals == null ? 143 : signals.status()); // null: a signal as the handlers went in
        };
        installed.set(ShutdownSignals.install(stop, stop));
        return new SignalStop(installed.get());
    }

    @Override
    public void close() {
        signals.close();
    }
}
