package io.sluice.audit;

/**
 * The audit could not be carried out (Kafka or the storage unreachable, the topic missing): there is no report. A
 * report with problems is not an exception; see {@link AuditReport#exitStatus()}.
 *
 * <p>Threading: immutable once thrown.
 */
public final class AuditException extends Exception {

    private static final long serialVersionUID = 1L;

    public AuditException(String message) {
        super(message);
    }

    public AuditException(String message, Throwable cause) {
        super(message, cause);
    }
}
