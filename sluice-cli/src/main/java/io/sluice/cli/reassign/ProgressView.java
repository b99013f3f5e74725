package io.sluice.cli.reassign;

import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.reassign.execute.MoveProgress;
import io.sluice.reassign.execute.RunListener;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A run's progress on the console: the live status line on a terminal, else a line every {@code every}; its steps
 * (configs set and restored, moves started) as messages.
 *
 * <p>Threading: the run's thread.
 */
final class ProgressView implements RunListener {

    private final Console console;
    private final long every;
    private long shownAt = System.nanoTime();

    ProgressView(Console console, Duration every) {
        this.console = console;
        this.every = every.toNanos();
    }

    @Override
    public void progress(MoveProgress p) {
        String line = "moving: " + p.partitionsDone() + "/" + p.partitions() + " partitions, "
                + Units.bytes(p.bytesCopied()) + " of " + Units.bytes(p.bytes()) + " copied"
                + p.eta().map(eta -> ", about " + Units.duration(eta) + " left").orElse("")
                + (p.waitingFor().isEmpty() ? "" : ", waiting for " + brokers(p.waitingFor()) + ", which "
                        + (p.waitingFor().size() == 1 ? "does" : "do") + " not answer");
        if (console.terminal()) {
            console.status(line);
        } else if (System.nanoTime() - shownAt >= every) {
            shownAt = System.nanoTime();
            console.say(line);
        }
    }

    /** "broker 4", "brokers 3 and 4", "brokers 2, 3 and 4". */
    private static String brokers(Set<Integer> ids) {
        List<String> sorted = ids.stream().sorted().map(String::valueOf).toList();
        if (sorted.size() == 1) {
            return "broker " + sorted.get(0);
        }
        return "brokers " + String.join(", ", sorted.subList(0, sorted.size() - 1)) + " and "
                + sorted.get(sorted.size() - 1);
    }

        @Override
    public void note(String line) {
        console.say(line);
    }

    void finish(String line) {
        console.clearStatus();
        console.say(line);
    }
}
