package io.sluice.reassign.cluster;

/** The cluster refused or did not answer an admin call; the message says which and why. */
public class ClusterException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
