package io.sluice.core;

/** What happens to a record whose every attempt failed. */
public enum FailureOutcome {
    /** Publish it to the dead-letter topic with the error in its headers; done once the broker acknowledges it. */
    DEAD_LETTER,
    /** Log it, count it and move on. */
    SKIP,
    /** Stop the engine cleanly: commit what is done before the record, and fail with the record's error. */
    STOP
}
