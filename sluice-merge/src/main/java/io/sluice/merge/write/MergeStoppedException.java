package io.sluice.merge.write;

/** The merge cannot go on by its configuration (a late record under late: stop, a record with no time and no DLQ). */
public final class MergeStoppedException extends Exception {

    public MergeStoppedException(String message) {
        super(message);
    }
}
