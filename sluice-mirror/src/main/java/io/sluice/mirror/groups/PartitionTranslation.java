package io.sluice.mirror.groups;

import java.util.Optional;
import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * One partition of one consumer group: the offset the group committed in the source, its exact translation into the
 * target partition (none while the mirror has not copied from the partition), and what the same group committed
 * in the target (none when it never did). A partition copied from may have no translation all the same, and
 * {@code notTranslated} says why: the mirror's progress is of an earlier topic of the same name, or the target did
 * not answer. {@code aheadOfTheCopy}: by how many source offsets the group is past what the mirror copied (its
 * translation is where the copies end); records it read that a consumer failing over now would find nowhere.
 */
public record PartitionTranslation(String group, TopicPartition source, long sourceCommitted, TopicPartition target,
        OptionalLong translation, OptionalLong targetCommitted, Optional<String> notTranslated, long aheadOfTheCopy) {

    /** Whether writing the translation would move the target group forward: it is never moved back. */
    public boolean movesForward() {
        return translation.isPresent()
                && (targetCommitted.isEmpty() || translation.getAsLong() > targetCommitted.getAsLong());
    }
}
