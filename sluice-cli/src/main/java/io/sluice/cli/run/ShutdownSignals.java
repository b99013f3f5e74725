package io.sluice.cli.run;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT (Ctrl-C) and SIGTERM while a pipeline, a mirror or a produce runs: the first asks for a clean drain, the second stops at once.
 * Handling the signals ourselves, rather than in a shutdown hook, keeps the JVM alive through the drain and lets
 * the command choose its exit status (0 after a clean drain). The JVM's own handlers come back on {@link #close()}.
 *
 * <p>Threading: the JVM calls the handlers on a thread of its own; the count is atomic.
 */
public final class ShutdownSignals implements AutoCloseable {

    private static final List<String> SIGNALS = List.of("INT", "TERM");

    private final AtomicInteger received = new AtomicInteger();
    private final List<Signal> signals = new ArrayList<>();
    private final List<SignalHandler> previous = new ArrayList<>();

    private ShutdownSignals() {
    }

    /**
     * @param first  run on the first signal: request a drain
     * @param second run on the second: say what is lost by stopping now, then halt
     */
    public static ShutdownSignals install(Runnable first, Runnable second) {
        ShutdownSignals handler = new ShutdownSignals();
        for (String name : SIGNALS) {
            Signal signal = new Signal(name);
            handler.signals.add(signal);
            handler.previous.add(Signal.handle(signal, s -> {
                if (handler.received.incrementAndGet() == 1) {
                    first.run();
                } else {
                    second.run();
                }
            }));
        }
        return handler;
    }

    @Override
    public void close() {
        for (int i = 0; i < signals.size(); i++) {
            Signal.handle(signals.get(i), previous.get(i));
        }
    }
}
