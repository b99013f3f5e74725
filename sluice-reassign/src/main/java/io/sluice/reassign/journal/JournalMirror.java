package io.sluice.reassign.journal;

import java.nio.file.Path;

/**
 * Where a {@link Journal} also records its runs' config changes, so that they can be found without its file: the
 * cluster's journal topic ({@link ClusterJournal}), or nowhere.
 *
 * <p>Threading: called on the journal's thread.
 */
public interface JournalMirror {

    /** Mirrors nothing: the journal is its file only. */
    JournalMirror NONE = new JournalMirror() {
        @Override
        public void changing(String run, Path journal, ConfigChange change) {
        }

        @Override
        public void restored(String run, ConfigChange change) {
        }
    };

    /** {@code change} is about to be made by {@code run} (journaled in {@code journal}); returns once it is stored. */
    void changing(String run, Path journal, ConfigChange change);

    /** {@code run} restored {@code change}: nothing of it is left to find. */
    void restored(String run, ConfigChange change);
}
