package io.sluice.storage.sink;

import io.sluice.core.ErrorWords;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.PendingRef;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What earlier owners of a partition left staged, as this owner's recovery listed it, and when it may go: after the
 * success of a commit of a checkpoint this instance made after the listing. Not at the listing: this owner may already
 * be a zombie then (frozen past its session, or its lane held by a store outage while the partition moved), and the
 * listing can hold files a newer owner staged, which that owner's commit names. A commit that succeeds is fenced by
 * the group, so the partition was still this owner's after the listing, and every file listed was a former owner's.
 *
 * <p>Checkpoints count by identity ({@link #made}): an equal one (the same offset, no manifest) answered for an earlier
 * owner in this process is not the same proof. The engine hands an answer only to the assignment that sent it; this
 * is the archive's own guard.
 *
 * <p>A removal that fails (a store that refuses a delete for a while) is tried again at a later such commit, since the
 * proof holds for every commit after the listing: at the next one, then no sooner than {@link #FIRST_PAUSE_NANOS}
 * after, the pause doubling up to {@link #LAST_PAUSE_NANOS}. It was tried once, and a member that keeps its partitions
 * for weeks kept the files as long, until its next recovery listed them again.
 *
 * <p>Threading: one thread at a time (the partition's lane).
 */
final class Leftovers {

    private static final Logger LOG = LoggerFactory.getLogger(Leftovers.class);

    /** Checkpoints remembered while leftovers wait, at most: a partition whose commits fail makes one an interval. */
    static final int MADE_HERE_KEPT = 64;
    static final long FIRST_PAUSE_NANOS = TimeUnit.MINUTES.toNanos(1);
    static final long LAST_PAUSE_NANOS = TimeUnit.HOURS.toNanos(1);

    private final String partition;
    private List<PendingRef> listed = List.of();
    private final Set<SinkCheckpoint> madeHere = Collections.newSetFromMap(new IdentityHashMap<>());
    private int failures;
    private long notBefore;

    /** @param partition the partition's name, for the words of a failed removal */
    Leftovers(String partition) {
        this.partition = partition;
    }

    /** The recovery's listing of the partition's staged files that no commit names. */
    void listed(List<PendingRef> refs) {
        listed = List.copyOf(refs);
        madeHere.clear();
        failures = 0;
    }

    /** A checkpoint this instance made: a commit of it that succeeds proves the listing was of former owners' files. */
    void made(SinkCheckpoint checkpoint) {
        if (listed.isEmpty()) {
            return;
        }
        if (madeHere.size() >= MADE_HERE_KEPT) {
            madeHere.clear(); // a commit of one made later proves the same
        }
        madeHere.add(checkpoint);
    }

    /**
     * A commit of {@code checkpoint} succeeded and its files are published: removes the leftovers when it is one this
     * instance made and no failed removal asks to wait. A failure is said and tried again later; it stops nothing, as
     * the files are invisible (every reader skips the staging area).
     */
    void committed(SinkCheckpoint checkpoint, StorageBackend backend) {
        if (listed.isEmpty() || !madeHere.contains(checkpoint)
                || failures > 0 && System.nanoTime() - notBefore < 0) {
            return;
        }
        try {
            backend.discardAll(listed);
            listed = List.of();
            madeHere.clear();
        } catch (IOException | RuntimeException e) {
            failures++;
            long pause = pauseAfter(failures);
            notBefore = System.nanoTime() + pause;
            String when = pause == 0 ? "the next commit"
                    : "a commit after " + TimeUnit.NANOSECONDS.toMinutes(pause) + " min";
            LOG.warn("could not remove the staged files (up to {}) an earlier owner of {} left in {} ({}); they are "
                    + "invisible, and removal is tried again at {}", listed.size(), partition, backend.describe(),
                    ErrorWords.of(e), when);
        }
    }

    /** After the n-th failure in a row: none after the first, then a minute, doubling up to an hour. */
    static long pauseAfter(int failures) {
        if (failures <= 1) {
            return 0;
        }
        int doublings = Math.min(failures - 2, 6); // 2^6 minutes is past the last pause already
        return Math.min(FIRST_PAUSE_NANOS << doublings, LAST_PAUSE_NANOS);
    }
}
