package io.sluice.cli.progress;

import io.sluice.cli.console.Units;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders progress between two readings as one line: records done, records/s, MB/s, lag, the records not yet durable,
 * time to catch up and files committed. Time to catch up comes from how fast the consumed lag shrinks, so records still
 * arriving are accounted for. "caught up" means durable: every record of the log is committed (an archive's are in
 * published files); with every record consumed but some still held (an archive's open files wait for their roll), the
 * line says how many and when the next commit is expected instead, since an operator reading "caught up" would think
 * the output current (issue 17). While the source cluster does not answer, the lag is as of the last time it did, so
 * the line says that instead of a lag that would read "caught up" through an outage. A partition stopped at a gap
 * is left out of the lags (it goes no further, and the run's line names it), so "caught up" becomes "the others caught
 * up". The lags are of the partitions this run holds: when its group's other members hold some of the topics' (or a
 * member that stopped holds them until its session times out), the line says how many it holds, since "caught up"
 * says nothing of the others (a new user's run: a mirror read "caught up" while a killed instance held half).
 *
 * <p>Threading: stateless.
 */
final class ProgressLine {

    private ProgressLine() {
    }

    static String render(ProgressSample from, ProgressSample to) {
        List<String> parts = new ArrayList<>();
        parts.add(Units.count(to.records()) + " records");
        double seconds = (to.nanos() - from.nanos()) / 1e9;
        if (seconds > 0) {
            parts.add(Units.compact((to.records() - from.records()) / seconds) + " rec/s");
            if (to.bytes() >= 0) {
                // the bytes done are estimated from the average size read, which moves as records are read: while
                // nothing is done the estimate can step back a little (a line read "-4 B/s" in an outage)
                parts.add(Units.bytes(Math.max(0, to.bytes() - from.bytes()) / seconds) + "/s");
            }
        }
        if (to.unreachable() != null) {
            parts.add(unreachable(to) + " (retrying; lag unknown)");
        } else if (to.lag() >= 0) {
            parts.add("lag " + Units.count(to.lag()));
            if (to.lag() > 0 && to.durableLag() > to.lag()) {
                parts.add(Units.count(to.durableLag()) + " not yet durable");
            }
            parts.add(catchUp(from, to, seconds));
        }
        if (to.held() >= 0 && to.held() < to.subscribed()) {
            parts.add(to.held() + " of " + to.subscribed() + " partitions held here");
        }
        if (to.targetUnreachable() != null) {
            parts.add(targetUnreachable(to) + " (retrying)");
        }
        if (to.files() >= 0) {
            parts.add(Units.count(to.files()) + (to.files() == 1 ? " file" : " files") + " committed");
        }
        return String.join(" · ", parts);
    }

    /**
     * The line while the run stops: the engine reads no more and its lag is no longer measured (its consumer thread is
     * busy with the last commit), so rates and catching up would read as a stall. Says what the stop is doing
     * instead ({@code what}), and what is not durable yet.
     */
    static String renderStopping(ProgressSample to, String what) {
        List<String> parts = new ArrayList<>();
        parts.add(Units.count(to.records()) + " records");
        parts.add("stopping: " + what);
        if (to.unreachable() != null) {
            parts.add(unreachable(to));
        }
        if (to.targetUnreachable() != null) {
            parts.add(targetUnreachable(to));
        }
        if (to.durableLag() > 0) {
            parts.add(Units.count(to.durableLag()) + " not yet durable");
        }
        if (to.files() >= 0) {
            parts.add(Units.count(to.files()) + (to.files() == 1 ? " file" : " files") + " committed");
        }
        return String.join(" · ", parts);
    }

    private static String catchUp(ProgressSample from, ProgressSample to, double seconds) {
        if (to.lag() == 0) {
            // the partitions stopped at a gap are not in the lag, and the line names them
            return to.durableLag() > 0 ? notYetDurable(to) : to.stopped() > 0 ? "the others caught up" : "caught up";
        }
        if (seconds <= 0 || from.lag() < 0) {
            return "ETA unknown";
        }
        double rate = (to.records() - from.records()) / seconds;
        if (rate > 0 && to.lag() <= rate * KEEPING_UP_SECONDS) {
            // a source written all the time leaves a small lag that comes and goes: a mirror at 150 rec/s with a lag of
            // 4 read "not catching up", "lag growing" and "ETA 20 s" in turn
            return "keeping up";
        }
        double shrinking = (from.lag() - to.lag()) / seconds;
        if (shrinking <= 0 && to.busy() != null) {
            // busy, not stuck: a roll writing hundreds of files completes no record for seconds (the quick start)
            return to.busy();
        }
        if (shrinking <= 0) {
            return to.lag() > from.lag() ? "lag growing" : "not catching up";
        }
        return "ETA " + Units.duration(Duration.ofMillis((long) (to.lag() / shrinking * 1000)));
    }

    /** A lag of at most this much of the current rate's records is kept up with: they are read within it. */
    private static final double KEEPING_UP_SECONDS = 1.0;

    private static String unreachable(ProgressSample to) {
        return "no answer from the source cluster for " + Units.duration(to.unreachable());
    }

    /** A run with files writes them to a store (an archive's S3); one without, to a cluster (a mirror's target). */
    private static String targetUnreachable(ProgressSample to) {
        return "no answer from the " + (to.files() >= 0 ? "store" : "target cluster") + " for "
                + Units.duration(to.targetUnreachable());
    }

    private static String notYetDurable(ProgressSample to) {
        String held = "consumed all, " + Units.count(to.durableLag()) + " not yet durable";
        return to.untilCommit() == null ? held : held + ", next commit in ~" + Units.duration(to.untilCommit());
    }
}
