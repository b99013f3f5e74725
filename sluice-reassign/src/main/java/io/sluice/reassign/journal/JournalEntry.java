package io.sluice.reassign.journal;

import io.sluice.reassign.plan.ReassignmentPlan;
import java.util.List;

/**
 * One line of a {@link Journal}. {@code event} says which fields are set:
 * {@code plan} (the plan being executed, the run's id, the temporary configs it sets and its {@link RunLimits}, first
 * line; journals of an earlier version have no configs or limits there), {@code changed} / {@code restored} (a
 * config, written before it is changed and after it is restored), {@code started} (partitions whose move was
 * requested), {@code finished} and {@code cancelled} (the run is over and every config restored).
 *
 * <p>Immutable.
 */
public record JournalEntry(String event, long time, ReassignmentPlan plan, ConfigChange config,
        List<String> partitions, String run, List<ConfigChange> intended, RunLimits limits) {

    static final String PLAN = "plan";
    static final String CHANGED = "changed";
    static final String RESTORED = "restored";
    static final String STARTED = "started";
    static final String FINISHED = "finished";
    static final String CANCELLED = "cancelled";

    static JournalEntry of(String event) {
        return new JournalEntry(event, System.currentTimeMillis(), null, null, null, null, null, null);
    }
}
