package io.sluice.reassign.execute;

import io.sluice.reassign.plan.PartitionMove;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan's moves cut into batches of at most {@code size} partitions, in the plan's order: a batch is moved at once
 * and the next starts when it is complete, so a move that fails or is cancelled leaves at most one batch half done.
 *
 * <p>Pure. Threading: stateless.
 */
public final class Batches {

    private Batches() {
    }

    public static List<List<PartitionMove>> of(List<PartitionMove> moves, int size) {
        List<List<PartitionMove>> batches = new ArrayList<>();
        for (int i = 0; i < moves.size(); i += size) {
            batches.add(List.copyOf(moves.subList(i, Math.min(moves.size(), i + size))));
        }
        return batches;
    }
}
