package io.sluice.mirror.groups;

import io.sluice.core.ErrorWords;
import io.sluice.mirror.MirrorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the offsets of the source's consumer groups in the target: every {@link MirrorConfig#groupSyncInterval}, each
 * source group the mirror's pattern matches has its committed offsets of the mirrored topics translated exactly
 * ({@link OffsetTranslator}) and written to the same group in the target, so that a consumer failing over reads on
 * where it stopped. A group is written only while it has no members in the target (a running consumer there owns its
 * offsets), only forward (a source group that went back must not make target consumers re-read, or undo what they
 * committed there), and only for partitions the mirror copied from.
 *
 * <p>Each instance of a mirror writes the offsets of the source partitions it copies now, asked for each group and
 * again right before its write: instances that each wrote every partition's came between each other's read of a
 * target group and their write, and one put back an older translation the other had moved past (a review). Its last
 * round, after its copy stopped, writes those it copied when it stopped ({@link #finish}).
 *
 * <p>A failure (a cluster away, a group that joined in between) is logged and the next round tries again: it never
 * stops the mirror.
 *
 * <p>Threading: the rounds run on its own daemon thread, which alone uses the translations; {@link #rounds} and
 * {@link #close} from any thread.
 */
public final class GroupOffsetSync implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.mirror");
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final MirrorConfig config;
    private final GroupTranslations translations;
    /** The source partitions this instance copies now. */
    private final Supplier<Set<TopicPartition>> copying;
    /** Those of the last round ({@link #finish}); empty for every partition. */
    private volatile Set<TopicPartition> copiedLast = Set.of();
    private final Thread thread;
    private final AtomicLong rounds = new AtomicLong();
    private final Object pause = new Object();
    private volatile boolean closed;
    /** One more round, then stop: the copy made its final commit ({@link #finish}). */
    private volatile boolean finishing;
    /** The last failure per group (or "" for the round's listing), so that a failure that lasts is logged once. */
    private final Map<String, String> failures = new HashMap<>();
    /** The groups the last round has not synced yet: named if {@link #finish} gives up waiting for it. */
    private final Set<String> lastRoundLeft = ConcurrentHashMap.newKeySet();

    private GroupOffsetSync(MirrorConfig config, GroupTranslations translations,
            Supplier<Set<TopicPartition>> copying) {
        this.config = config;
        this.translations = translations;
        this.copying = copying;
        this.thread = new Thread(this::run, "sluice-mirror-groups-" + config.name());
        this.thread.setDaemon(true);
    }

    /**
     * Starts syncing the groups of the mirror {@code config} describes, which copies from the cluster
     * {@code sourceClusterId}; the admin clients are the mirror's and stay open until this is closed.
     *
     * @param copying the source partitions this instance copies now, whose groups' offsets it writes
     */
    public static GroupOffsetSync start(MirrorConfig config, String sourceClusterId, Admin sourceAdmin,
            Admin targetAdmin, Supplier<Set<TopicPartition>> copying) {
        GroupOffsetSync sync = new GroupOffsetSync(config, GroupTranslations.open(config, sourceClusterId, sourceAdmin,
                targetAdmin, TIMEOUT), copying);
        sync.thread.start();
        return sync;
    }

    /** How many rounds ended so far: each looked at every matching group once. */
    public long rounds() {
        return rounds.get();
    }

    private void run() {
        try {
            while (!closed && !finishing) {
                round();
                rounds.incrementAndGet();
                synchronized (pause) {
                    if (!closed && !finishing) {
                        pause.wait(config.groupSyncInterval().toMillis());
                    }
                }
            }
            if (finishing && !closed) {
                round();
                rounds.incrementAndGet();
            }
        } catch (InterruptedException e) {
            // closing
        } finally {
            Thread.interrupted(); // the consumers close cleanly only on a thread that is not interrupted
            try {
                translations.close();
            } catch (RuntimeException e) {
                LOG.debug("mirror '{}': closing the group sync's clients: {}", config.name(), e.toString());
            }
        }
    }

    private void round() {
        Predicate<TopicPartition> mine;
        if (finishing) {
            Set<TopicPartition> last = copiedLast;
            mine = last.isEmpty() ? tp -> true : last::contains; // a bounded run with nothing new held none
        } else {
            Set<TopicPartition> now = copying.get();
            if (now.isEmpty()) {
                return; // nothing copied here (yet): another instance's rounds write its groups' offsets
            }
            mine = now::contains;
        }
        translations.startRound();
        List<String> groups;
        try {
            groups = translations.groups();
            succeeded("");
        } catch (RuntimeException e) {
            failed("", "cannot list the source's consumer groups", e);
            return;
        }
        if (finishing) {
            lastRoundLeft.addAll(groups);
        }
        Set<String> listed = Set.copyOf(groups);
        failures.keySet().removeIf(g -> !g.isEmpty() && !listed.contains(g)); // a group that is gone is not failing
        for (String group : groups) {
            if (closed) {
                return;
            }
            if (!finishing) {
                // asked again per group: a round over many groups lasts seconds, and a partition revoked meanwhile is
                // another instance's to write (this one's older translation would put back what it moved past)
                Set<TopicPartition> now = copying.get();
                if (now.isEmpty()) {
                    return;
                }
                mine = now::contains;
            }
            try {
                sync(group, mine);
                succeeded(group);
                lastRoundLeft.remove(group);
            } catch (RuntimeException e) {
                failed(group, "cannot sync the offsets of group '" + group + "' to the target", e);
            }
        }
    }

    private void sync(String group, Predicate<TopicPartition> mine) {
        Map<TopicPartition, Long> forward = new HashMap<>();
        List<String> notTranslated = new ArrayList<>();
        List<PartitionTranslation> translated = translations.of(group, mine);
        for (PartitionTranslation t : translated) {
            t.notTranslated().ifPresent(why -> notTranslated.add(t.source() + ": " + why));
            if (t.movesForward()) {
                forward.put(t.target(), t.translation().getAsLong());
            }
        }
        if (!finishing) {
            Set<TopicPartition> now = copying.get(); // the translation read both clusters: held still?
            Map<TopicPartition, TopicPartition> sourceOf = new HashMap<>();
            for (PartitionTranslation t : translated) {
                sourceOf.put(t.target(), t.source());
            }
            forward.keySet().removeIf(target -> !now.contains(sourceOf.get(target)));
        }
        // asked last, right before the write, which the target refuses anyway if a member joins in between
        if (!forward.isEmpty() && !translations.target().hasMembers(group)) {
            translations.target().commit(group, forward);
        }
        if (!notTranslated.isEmpty()) { // the others are written: said as the group's failure, once while it lasts
            throw new IllegalStateException("not translated, " + String.join("; ", notTranslated));
        }
    }

    private void succeeded(String group) {
        if (failures.remove(group) != null) {
            LOG.info("mirror '{}': {} synced again", config.name(),
                    group.isEmpty() ? "the group listing" : "group '" + group + "'");
        }
    }

    private void failed(String group, String what, RuntimeException e) {
        if (closed) {
            return; // an interrupted call while closing: nothing failed
        }
        String message = what + ": " + ErrorWords.of(e);
        if (finishing) {
            // no next round, and no copy going on: "trying again" read as a stop that had not happened (a chaos run)
            LOG.warn("mirror '{}': {}; its offsets in the target are those of an earlier round (a start of the mirror "
                    + "syncs them again)", config.name(), message);
        } else if (!message.equals(failures.put(group, message))) {
            LOG.warn("mirror '{}': {}; trying again every {} ms until it works (the copy goes on)", config.name(),
                    message, config.groupSyncInterval().toMillis());
        }
    }

    /**
     * Runs one more round, then stops: called after the copy's final commit, so that the groups' offsets translate to
     * everything copied (a bounded run can end before the first round's interval, or between rounds). Waits for that
     * round up to a round's timeout, then stops it as {@link #close} does.
     *
     * @param copied the source partitions this instance copied when it stopped (the partitions it held then are
     *     another's once it left the group); empty for all of them, as a run that held none does
     * @param wait how long the stop waits for that round (and for one under way): a bounded run's groups are its
     *     result, a stopped mirror's are synced again at its next start, and a target that does not answer held a
     *     stop past a container's grace period of 30 s (a chaos run)
     */
    public void finish(Set<TopicPartition> copied, Duration wait) {
        copiedLast = Set.copyOf(copied);
        finishing = true;
        synchronized (pause) {
            pause.notifyAll();
        }
        try {
            thread.join(Math.max(1, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            // the stop goes on; a run that ends here must not pass for one whose groups are all translated
            LOG.warn("mirror '{}': the last round of the group sync did not end within {} s; not synced to the last "
                    + "copies: {} (their target offsets are those of an earlier round; a start of the mirror syncs "
                    + "them again)", config.name(), wait.toSeconds(), lastRoundLeft.isEmpty()
                            ? "the groups (the round under way had not ended, or the source's groups were not listed)"
                            : String.join(", ", lastRoundLeft));
        }
        close();
    }

    /** Stops the rounds (a round under way is interrupted) and closes the clients of the translation. */
    @Override
    public void close() {
        closed = true;
        synchronized (pause) {
            pause.notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
