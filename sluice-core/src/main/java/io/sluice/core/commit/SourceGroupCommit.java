package io.sluice.core.commit;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.kafka.clients.consumer.CommitFailedException;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.IllegalGenerationException;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.UnknownMemberIdException;

/**
 * The commit point of archives and handlers: the source consumer group's offset commit. The group coordinator
 * accepts a commit only from a member of the current generation that owns the partition, so a member that lost its
 * partitions (session expired, frozen past its timeout) can never commit for them again: the coordinator fences it,
 * and {@link #claim} needs to do nothing more than read. Commits from one consumer reach the coordinator in the
 * order they were sent, so an older commit never lands after a newer one.
 *
 * <p>Threading: the engine's consumer thread only.
 */
public final class SourceGroupCommit implements CommitPoint {

    private final SourceGroup group;

    public SourceGroupCommit(SourceGroup group) {
        this.group = Objects.requireNonNull(group, "group");
    }

    @Override
    public String describe() {
        return "the offset commit of group '" + group.groupId() + "'";
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout) {
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>(group.committed(partitions, timeout));
        committed.values().removeIf(Objects::isNull);
        return committed;
    }

    /** The source group's offsets: where this commit point keeps the progress, whoever owns the partitions. */
    @Override
    public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> partitions) {
        return group.committedAsync(partitions);
    }

    @Override
    public void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Outcome outcome) {
        group.commitAsync(offsets, outcome::completed);
    }

    @Override
    public void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        try {
            group.commitSync(offsets, timeout);
        } catch (RuntimeException e) {
            // the consumer may have tried more than once within this call, the first try's outcome unknown
            throw refusedForCertain(e) ? new RefusedAfterUnknownTry(e) : e;
        }
    }

    /**
     * These say the coordinator refused the commit: this member is not of the current generation, or not yet. Certain
     * of an asynchronous commit, which is sent once; a synchronous one's refusal is not ({@link RefusedAfterUnknownTry}).
     */
    @Override
    public boolean refusedForCertain(Exception error) {
        return error instanceof CommitFailedException || error instanceof RebalanceInProgressException
                || error instanceof FencedInstanceIdException || error instanceof UnknownMemberIdException
                || error instanceof IllegalGenerationException;
    }

    /** An empty synchronous commit sends nothing, but the consumer runs the callbacks of every commit in flight. */
    @Override
    public void settleInFlight(Duration timeout) {
        group.commitSync(Map.of(), timeout);
    }
}
