package io.sluice.cli.reassign;

import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.reassign.plan.DiskHeadroom;
import io.sluice.reassign.plan.DiskUse;
import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.util.Locale;

/**
 * A plan as text: the moves, then each log dir's disk now, at peak and after, with shares of its capacity.
 *
 * <p>Stateless.
 */
final class PlanReport {

    private PlanReport() {
    }

    static void print(ReassignmentPlan plan, Console console) {
        console.result("Goal: " + plan.goal() + ": " + plan.moves().size() + " partitions change, "
                + plan.replicaMoves() + " replica copies, " + Units.bytes(plan.bytesToCopy()) + " to copy");
        for (PartitionMove move : plan.moves()) {
            console.result("  " + move.topic() + "-" + move.partition() + "  " + move.from() + " -> " + move.to()
                    + (move.replicaMoves() == 0 ? "  (new preferred leader, nothing copied)"
                    : "  " + Units.bytes(move.bytes()) + " x " + move.replicaMoves()));
        }
        console.result(String.format(Locale.ROOT, "%-7s %-40s %12s %16s %16s %16s", "Broker", "Log dir", "Capacity",
                "Now", "Peak", "After"));
        for (DiskUse use : plan.disks()) {
            console.result(String.format(Locale.ROOT, "%-7d %-40s %12s %16s %16s %16s", use.broker(), use.logDir(),
                    use.capacityKnown() ? Units.bytes(use.capacity()) : "unknown", withShare(use.now(), use),
                    withShare(use.peak(), use), withShare(use.after(), use)));
        }
    }

    /** A refused log dir with its numbers. */
    static String overLine(DiskUse use, DiskHeadroom headroom) {
        return "broker " + use.broker() + " " + use.logDir() + " would hold " + Units.bytes(use.peak()) + " at peak ("
                + DiskUse.percent(use.peakShare()) + " of " + Units.bytes(use.capacity()) + "), above the limit of "
                + Units.bytes(headroom.limitBytes(use)) + " (" + DiskUse.percent(headroom.maxShare()) + "); now "
                + Units.bytes(use.now()) + ", after the moves " + Units.bytes(use.after());
    }

    private static String withShare(long bytes, DiskUse use) {
        return Units.bytes(bytes) + (use.capacityKnown() ? " " + DiskUse.percent((double) bytes / use.capacity()) : "");
    }
}
