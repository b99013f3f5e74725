package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.ClusterException;
import io.sluice.reassign.plan.DiskUse;
import java.util.List;

/**
 * A batch was not started: with the disks as they are now, its copies would take a log dir past the run's limit. The
 * plan's figures are from when it was made (days before, maybe), and traffic, or another run, fills disks since; a
 * full log dir goes offline in Kafka, and its partitions with it.
 */
public final class DiskWouldFillException extends ClusterException {

    private static final long serialVersionUID = 1L;

    private final transient List<DiskUse> over;

    public DiskWouldFillException(String message, List<DiskUse> over) {
        super(message, null);
        this.over = List.copyOf(over);
    }

    /** The log dirs the batch would take past the limit. */
    public List<DiskUse> over() {
        return over;
    }
}
