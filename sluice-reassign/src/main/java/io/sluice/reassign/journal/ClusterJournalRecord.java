package io.sluice.reassign.journal;

/**
 * A record of the cluster's journal topic: a config a run is changing, with where the run's journal file is, so
 * that {@code check} can say whose it is and restore it without that file. Keyed by {@link #key()}: the run and
 * the config, so compaction keeps one record per config a run changed, and the record's tombstone (written when
 * the run restores the config) lets compaction drop it.
 *
 * <p>Immutable.
 */
public record ClusterJournalRecord(String run, String host, String journal, long time, ConfigChange change) {

    public String key() {
        return key(run, change);
    }

    static String key(String run, ConfigChange change) {
        return run + " " + change.id();
    }

    /** Whose record this is, for a person. */
    public String origin() {
        return "run " + run + " on " + host + ", journal " + journal;
    }
}
