package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.ClusterException;

/**
 * A batch was not started: with the disks as they are now, its copies would take a log dir past the run's limit. The
 * plan's figures are from when it was made (days before, maybe), and traffic, or another run, fills disks since; a
 * full log dir goes offline in Kafka, and its partitions with it.
 */
public final class DiskWouldFillException extends ClusterException {

    private static final long serialVersionUID = 1L;

    public DiskWouldFillException(String message) {
        super(message, null);
    }
}
