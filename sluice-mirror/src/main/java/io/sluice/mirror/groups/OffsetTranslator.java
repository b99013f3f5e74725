package io.sluice.mirror.groups;

import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorProgress;
import io.sluice.mirror.copy.CopyBounds;
import io.sluice.mirror.groups.TargetCopies.Copy;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Translates a source offset O of a source partition into the offset of the target partition (the target topic's
 * partition with the same number) where a consumer reads on exactly from O: the offset of the first copy, as a
 * read_committed reader sees the target, whose provenance offset is O or later; when there is none yet, the target's
 * last stable offset (the next copy lands there or later). O is first clamped at the mirror's progress: a group is
 * never moved past what was copied, and a partition never copied from has no translation.
 *
 * <p>Found by binary search over target offsets, which relies on the copies of a source partition being in source
 * order (exactly once they are). At least once, a restart repeats the copies since the last commit; the search then
 * ends at one of the places where the copies reach O, and everything from O on follows each of them: a consumer may
 * re-read, never skip. The last answer per partition is kept, so that a group moving forward costs a short forward
 * scan from there instead of a search.
 *
 * <p>Threading: one thread at a time (the progress and the copies it reads are its owner's).
 */
final class OffsetTranslator {

    /** Copies read forward from the last answer before a binary search takes over. */
    static final int FORWARD_SCAN = 1_000;

    private final MirrorConfig config;
    private final MirrorProgress progress;
    private final TargetCopies copies;
    private final int forwardScan;
    private final Map<TopicPartition, Known> known = new HashMap<>();
    /** The first copies found where their commits say ({@link #isThere}), by target partition. */
    private final Map<TopicPartition, CopyBounds.FirstCopy> firstCopies = new HashMap<>();
    /**
     * The ID of each target topic whose partitions' answers are in {@link #known} and {@link #firstCopies}: the topic
     * deleted and created again while this process runs holds none of them. Kept without it, a first copy checked once
     * in the earlier topic was taken as the new one's, and a search began past copies a group had not read (a review).
     */
    private final Map<String, Uuid> answeredIn = new HashMap<>();
    /** The target partitions that did not answer in this round ({@link #startRound}), with why. */
    private final Map<TopicPartition, String> unanswered = new HashMap<>();

    /**
     * The last answer for a source partition: every copy before {@code targetOffset} came from before
     * {@code sourceOffset}, and, if {@code isCopy}, the copy at {@code targetOffset} came from {@code sourceOffset} or
     * later.
     */
    private record Known(long sourceOffset, long targetOffset, boolean isCopy) {
    }

    /** @param forwardScan how many copies to read forward from the last answer before searching */
    OffsetTranslator(MirrorConfig config, MirrorProgress progress, TargetCopies copies, int forwardScan) {
        this.config = config;
        this.progress = progress;
        this.copies = copies;
        this.forwardScan = forwardScan;
    }

    /**
     * The target offsets of the source offsets {@code sourceOffsets}, keyed by source partition; a partition the
     * mirror has not copied from yet is left out.
     */
    Map<TopicPartition, Long> translate(Map<TopicPartition, Long> sourceOffsets) {
        return translate(sourceOffsets, Map.of(), Map.of()).offsets();
    }

    /**
     * The target offsets of source offsets, and why the others that were copied from have none: the mirror's
     * progress is of an earlier topic of the same name, or the target did not answer for that partition.
     */
    record Translated(Map<TopicPartition, Long> offsets, Map<TopicPartition, String> notTranslated,
            Map<TopicPartition, Long> aheadOfTheCopy) {
    }

    /**
     * As {@link #translate(Map)}, of the source topics whose IDs are {@code topicIds} now: a partition whose progress
     * was made copying a topic of the same name deleted since (a source topic created again) is left out, its group's
     * offsets being of the new topic, whose records the earlier copies are not (a review). A partition the target does
     * not answer for is left out too, with why, and the others are translated all the same: one partition offline
     * held up every group that read it, and their other partitions (a review). {@code targetTopicIds} are the IDs of
     * the target topics now: what was learnt of a target topic of another ID is forgotten first.
     */
    Translated translate(Map<TopicPartition, Long> sourceOffsets, Map<String, Uuid> topicIds,
            Map<String, Uuid> targetTopicIds) {
        forgetEarlierTopics(targetTopicIds);
        // the progress before the target's end: every copy the progress counts is then below that end
        Map<TopicPartition, MirrorProgress.Reach> reached = progress.reach(sourceOffsets.keySet());
        Map<TopicPartition, Long> translated = new HashMap<>();
        Map<TopicPartition, String> not = new HashMap<>();
        Map<TopicPartition, Long> ahead = new HashMap<>();
        sourceOffsets.forEach((source, offset) -> {
            MirrorProgress.Reach reach = reached.get(source);
            Uuid now = topicIds.get(source.topic());
            TopicPartition target = targetOf(source);
            if (reach != null && now != null && reach.topicId().filter(id -> !id.equals(now)).isPresent()) {
                not.put(source, "the source topic was created again after the copies (the mirror stopped the "
                        + "partition at that gap, and its log says what to do)");
                known.remove(source);
            } else if (reach != null && unanswered.containsKey(target)) {
                not.put(source, unanswered.get(target));
            } else if (reach != null) {
                long copied = reach.copiedBefore();
                if (offset > copied) {
                    ahead.put(source, offset - copied);
                }
                try {
                    translated.put(source, targetOffset(source, Math.min(offset, copied), offset >= copied,
                            reach.copies()));
                } catch (RuntimeException e) {
                    String why = e instanceof TimeoutException || e.getMessage() == null
                            ? "no answer from the target cluster for " + target + " in time"
                            : "reading " + target + " in the target cluster failed: " + e.getMessage();
                    unanswered.put(target, why);
                    not.put(source, why);
                    known.remove(source);
                }
            }
        });
        return new Translated(translated, not, ahead);
    }

    private void forgetEarlierTopics(Map<String, Uuid> targetTopicIds) {
        targetTopicIds.forEach((topic, id) -> {
            Uuid before = answeredIn.put(topic, id);
            if (before != null && !before.equals(id)) {
                firstCopies.keySet().removeIf(target -> target.topic().equals(topic));
                known.keySet().removeIf(source -> targetOf(source).topic().equals(topic));
            }
        });
    }

    /** Starts a round of questions: a target partition that did not answer in the last round is asked again. */
    void startRound() {
        unanswered.clear();
    }

    /** The target partition a source partition is copied to. */
    TopicPartition targetOf(TopicPartition source) {
        return config.naming().target(source);
    }

    /**
     * @param atProgress  {@code offset} is the mirror's progress: its first copy, if any, lies near the end
     * @param bounds      where the progress's copies lie, as far as its commit says
     */
    private long targetOffset(TopicPartition source, long offset, boolean atProgress, CopyBounds bounds) {
        TopicPartition target = targetOf(source);
        long lo = copies.start(target);
        long end = copies.stableEnd(target);
        if (bounds.first().isPresent() && offset >= bounds.first().get().sourceOffset()
                && isThere(target, bounds.first().get(), end)) {
            // everything from that copy's source offset on was copied from it on: what lies below is not this
            // progress's (another tool's records before the first copy, or copies of an earlier progress)
            lo = Math.max(lo, bounds.first().get().targetOffset());
        }
        OptionalLong copiesBelow = bounds.below();
        long hi = end;
        Known k = known.get(source);
        if (k != null && k.targetOffset >= lo && k.targetOffset <= end) {
            if (k.isCopy && offset == k.sourceOffset) {
                return k.targetOffset; // committed copies never change: the same question, the same answer
            }
            if (offset >= k.sourceOffset) {
                lo = k.targetOffset;
            } else if (k.isCopy) {
                hi = k.targetOffset; // that copy came from after offset too: the answer is no later
            }
        }
        if (atProgress) {
            // every copy from before offset lies below it, every copy at or past it came from offset or later
            lo = copiesBelow.isPresent() && copiesBelow.getAsLong() <= end ? Math.max(lo, copiesBelow.getAsLong())
                    : boundNearEnd(target, offset, lo, end);
        }
        OptionalLong first = firstCopyFrom(target, offset, lo, hi);
        Known answer = first.isPresent() ? new Known(offset, first.getAsLong(), true)
                : hi < end ? new Known(offset, hi, true) : new Known(offset, end, false);
        known.put(source, answer);
        return answer.targetOffset;
    }

    /**
     * Whether the progress's first copy is at its place in the target partition: the commit that names it may be of
     * another partition than the one there now (the target topic created again, or another topic named since, while
     * an at-least-once progress in the source cluster lived on), and a search started there would pass copies a group
     * has not read. Read once per place.
     */
    private boolean isThere(TopicPartition target, CopyBounds.FirstCopy first, long end) {
        if (first.targetOffset() >= end) {
            return false;
        }
        if (!first.equals(firstCopies.get(target))) {
            Optional<Copy> there = copies.walk(target, first.targetOffset(), first.targetOffset() + 1, copy -> true);
            if (there.isEmpty() || there.get().sourceOffset() != first.sourceOffset()) {
                return false;
            }
            firstCopies.put(target, first);
        }
        return true;
    }

    /**
     * A lower bound for the first copy from {@code offset} on, when {@code offset} is the progress and its commit does
     * not say where its copies end: only the copies committed after the progress was read lie beyond it, so probes
     * backwards from the end, ever further, find a copy from before it in a few reads. A group ahead of the copy is translated every round while the progress moves;
     * a binary search over the whole partition each time read megabytes per round and showed as a tenth of the
     * mirror's CPU time.
     */
    private long boundNearEnd(TopicPartition target, long offset, long lo, long end) {
        for (long back = forwardScan; end - back > lo; back *= 8) {
            Optional<Copy> first = copies.walk(target, end - back, end, copy -> true);
            if (first.isPresent() && first.get().sourceOffset() < offset) {
                return first.get().targetOffset() + 1;
            }
        }
        return lo;
    }

    /** The offset of the first copy in [lo, hi) that came from {@code offset} or later. */
    private OptionalLong firstCopyFrom(TopicPartition target, long offset, long lo, long hi) {
        int[] scanned = {0};
        Optional<Copy> reached = copies.walk(target, lo, hi,
                copy -> copy.sourceOffset() >= offset || ++scanned[0] >= forwardScan);
        if (reached.isEmpty()) {
            return OptionalLong.empty();
        }
        if (reached.get().sourceOffset() >= offset) {
            return OptionalLong.of(reached.get().targetOffset());
        }
        OptionalLong found = OptionalLong.empty();
        lo = reached.get().targetOffset() + 1;
        while (lo < hi) {
            long mid = lo + (hi - lo) / 2;
            Optional<Copy> first = copies.walk(target, mid, hi, copy -> true);
            if (first.isEmpty()) {
                hi = mid; // no copy in [mid, hi)
            } else if (first.get().sourceOffset() >= offset) {
                found = OptionalLong.of(first.get().targetOffset());
                hi = mid;
            } else {
                lo = first.get().targetOffset() + 1;
            }
        }
        return found;
    }
}
