package io.sluice.mirror.audit;

/** The audit could not be done (a cluster unreachable, a topic missing, a timeout): the message says why, for a person. */
public final class MirrorAuditException extends RuntimeException {

    MirrorAuditException(String message) {
        super(message);
    }

    MirrorAuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
