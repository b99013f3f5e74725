package io.sluice.cli.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT (Ctrl-C) and SIGTERM while a pipeline, a mirror or a produce runs: the first asks for a clean drain, the second stops at once.
 * Handling the signals ourselves, rather than in a shutdown hook, keeps the JVM alive through the drain and lets
 * the command choose its exit status (0 after a clean drain). The JVM's own handlers come back on {@link #close()}.
 * Before the run, while the command connects and starts, {@link #whileStarting} says what a signal stopped.
 *
 * <p>Threading: the JVM calls the handlers on a thread of its own; the count is atomic. The handlers are the JVM's,
 * one set for the process, so which handlers are the start's is one static field.
 */
public final class ShutdownSignals implements AutoCloseable {

    private static final List<String> SIGNALS = List.of("INT", "TERM");

    /** The start's handlers while installed: a run's own supersede them. */
    private static volatile ShutdownSignals starting;

    private final AtomicInteger received = new AtomicInteger();
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();
    /** 128 + the number of the last signal received: what the shells expect of a process a signal stopped. */
    private volatile int signalStatus = 143;
    private volatile boolean superseded;

    private ShutdownSignals() {
    }

    /**
     * @param first  run on the first signal: request a drain
     * @param second run on the second: say what is lost by stopping now, then halt
     */
    public static ShutdownSignals install(Runnable first, Runnable second) {
        ShutdownSignals start = starting;
        if (start != null) {
            start.superseded = true;
        }
        ShutdownSignals handler = new ShutdownSignals();
        handler.handle(first, second);
        return handler;
    }

    /**
     * Until a run installs its own handlers: a signal while the command connects and starts (the clusters' probes and
     * claims can take seconds) says so, instead of an exit without a word, and exits with 128 + the signal's number.
     * The start may have begun reading (an engine starts before its run's handlers are installed), but what was read
     * and not committed is read again by a restart: nothing is lost. After the run (its handlers closed, these back) a
     * signal only exits: the run has said its own end. Close it when the command ends.
     *
     * @param say how the command says it, e.g. on its console
     */
    public static ShutdownSignals whileStarting(String command, Consumer<String> say) {
        ShutdownSignals handler = new ShutdownSignals();
        Runnable stop = () -> {
            if (!handler.superseded) {
                say.accept(command + ": stopped by a signal while starting, before the run could drain: nothing"
                        + " of it is lost, and a restart goes on from the last commit");
            }
            System.exit(handler.signalStatus);
        };
        handler.handle(stop, stop);
        starting = handler;
        return handler;
    }

    private void handle(Runnable first, Runnable second) {
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            signals.add(signal);
            previous.add(Signal.handle(signal, s -> {
                signalStatus = 128 + s.getNumber();
                if (received.incrementAndGet() == 1) {
                    first.run();
                } else {
                    second.run();
                }
            }));
        }
    }

    /** 128 + the number of the last signal received (143 before any): the status a signal's stop exits with. */
    public int status() {
        return signalStatus;
    }

    @Override
    public void close() {
        if (starting == this) {
            starting = null;
        }
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
