package io.sluice.cli;

/**
 * Something outside the pipeline file that stops a command (brokers unreachable, no matching topic, storage
 * refusing the credentials), with a message for the user. The command exits with status 1.
 */
public final class RunFailure extends Exception {

    private static final long serialVersionUID = 1L;

    public RunFailure(String message) {
        super(message);
    }

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
