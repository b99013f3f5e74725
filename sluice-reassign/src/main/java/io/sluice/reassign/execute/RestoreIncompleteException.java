package io.sluice.reassign.execute;

import io.sluice.reassign.cluster.ClusterException;

/**
 * Configs a run set that could not be put back (a broker or topic that does not answer), said once every other was:
 * the moves are not what is left, so a run's "stopped midway" advice does not follow it.
 */
public final class RestoreIncompleteException extends ClusterException {

    private static final long serialVersionUID = 1L;

    public RestoreIncompleteException(String message) {
        super(message, null);
    }
}
