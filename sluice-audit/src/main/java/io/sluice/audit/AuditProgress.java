package io.sluice.audit;

/**
 * Told how far the audit has read the archive, so that a person watching a long audit sees it move.
 *
 * <p>Threading: called on the thread that runs {@link Audit#run}, after each data file is read; it must return
 * quickly (a counter, a line printed now and then).
 */
@FunctionalInterface
public interface AuditProgress {

    /** Nothing to tell. */
    AuditProgress NONE = (files, rows) -> { };

    /**
     * @param files the data files read so far
     * @param rows  the rows in them
     */
    void filesRead(long files, long rows);
}
