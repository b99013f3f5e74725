package io.sluice.cli.reassign;

import io.sluice.cli.RunFailure;
import io.sluice.reassign.execute.PlanFreshness;
import io.sluice.reassign.execute.Reassignments;
import io.sluice.reassign.journal.Journal;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;

/**
 * The run a journal file holds, for the commands that finish it ({@code resume}) or undo it ({@code cancel}): refused
 * when the file holds no run (the plan file, or any other file, given for its journal: {@code cancel} said
 * "cancelled" while the run's moves and throttles were still in the cluster) or when the run was on another cluster
 * ({@code cancel} removed this cluster's throttles, which another run had set).
 *
 * <p>Stateless.
 */
final class JournaledRun {

    private JournaledRun() {
    }

    /** The plan the journal's run executes. */
    static ReassignmentPlan planOf(Path journalFile) throws RunFailure {
        Optional<ReassignmentPlan> plan = Journal.plan(Journal.read(journalFile));
        if (plan.isEmpty()) {
            throw new RunFailure("the file " + journalFile + " holds no run: give the run's journal (by default the "
                    + "plan file's name + .journal), not the plan or another file");
        }
        return plan.get();
    }

    /** Refuses a run of another cluster than the one {@code admin} is connected to; {@code verb}: what was asked. */
    static void requireThisCluster(Path journalFile, ReassignmentPlan plan, Admin admin, String verb)
            throws RunFailure {
        Optional<String> otherCluster = PlanFreshness.otherCluster(plan.cluster(), Reassignments.clusterId(admin));
        if (otherCluster.isPresent()) {
            throw new RunFailure("the journal " + journalFile + " is of a run on another cluster: "
                    + otherCluster.get() + "; " + verb + " it with --bootstrap-servers of the cluster it was started "
                    + "on");
        }
    }
}
