package io.sluice.reassign.execute;

/**
 * Hears a run's progress and its notable steps (configs set and restored, batches started), for the console.
 *
 * <p>Threading: called on the run's thread.
 */
public interface RunListener {

    void progress(MoveProgress progress);

    void note(String line);
}
