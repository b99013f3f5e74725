package io.sluice.reassign.journal;

/** A journal another run holds: two runs of one journal would undo each other's moves and configs. */
public final class JournalInUseException extends IllegalStateException {

    public JournalInUseException(String message) {
        super(message);
    }
}
