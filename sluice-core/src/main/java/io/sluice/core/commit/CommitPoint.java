package io.sluice.core.commit;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The one step that makes a partition's progress true: until a commit point has taken a commit, the work behind it
 * (records a handler processed, files a sink wrote) is repeated after a crash; once it has, it is never repeated. A
 * sink makes its output visible only after the commit point took the commit that names it.
 *
 * <p>What a commit carries: per partition, the offset to resume from and the engine's metadata text (see
 * {@link io.sluice.core.wire.CommitMetadata}: the topic ID, the completion map beyond the offset and a sink's
 * checkpoint data). A commit point transports it and keeps it; the engine writes and reads the text.
 *
 * <p>Who fences zombies: the commit point. A member that lost its partitions (its session expired, it was frozen)
 * may wake up and try to commit; the commit point must refuse that commit, by a mechanism of Kafka, never by timing.
 * {@link #claim} is where a new owner shuts the door on earlier ones.
 *
 * <p>What a failed commit means: {@link #refusedForCertain} tells a commit that will never take effect (the member was
 * fenced, a rebalance was in progress) from one whose outcome is unknown (a timeout: it may yet be the committed one).
 * The engine tells the sink which it was, and a sink keeps the output of an unknown outcome for recovery.
 *
 * <p>Where a commit runs: on the consumer thread, asynchronously ({@link #commit}) on the interval and synchronously
 * ({@link #commitNow}) on revoke and close; or, when {@link #commitsInLane}, always {@link #commitNow} in the
 * partition's lane, right after the sink's checkpoint and in order with its writes, as a producer's transaction needs.
 *
 * <p>Implementations: {@link SourceGroupCommit}, the source consumer group's offset commit, fenced by the group's
 * generation (archives and handlers); {@link TargetTransactionCommit}, a transaction in a target cluster that holds
 * the copied records and the source offsets together, fenced by transactional IDs (mirrors, merges).
 *
 * <p>Threading: every method is called on the engine's consumer thread, and {@link Outcome}s must be delivered there
 * too (for the source group they are: the consumer runs commit callbacks inside its own calls); except that a commit
 * point that {@link #commitsInLane} has {@link #commitNow} called in lanes, for different partitions at once.
 */
public interface CommitPoint {

    /** Words for logs and errors, such as "the offset commit of group 'orders-archive'". */
    String describe();

    /**
     * The partitions are now this member's: fences every earlier owner of them, then reads each one's last commit
     * (absent when the partition was never committed). Called when partitions are assigned, before any of their
     * records is dispatched.
     */
    Map<TopicPartition, OffsetAndMetadata> claim(Set<TopicPartition> partitions, Duration timeout);

    /** Starts a commit; {@code outcome} hears how it ended, on the consumer thread. Commits take effect in order. */
    void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Outcome outcome);

    /**
     * Commits and waits, for revoked partitions and on close; throws when the commit did not certainly succeed (see
     * {@link #refusedForCertain}).
     */
    void commitNow(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout);

    /**
     * Whether commits must run in the partition's lane, in order with the sink's writes, rather than on the consumer
     * thread: then {@link #commitNow} is called there for one partition at a time, and {@link #commit} never. Such a
     * commit that did not certainly succeed stops the engine: what the sink handed to an aborted or unknown commit is
     * gone or in doubt, and only a restart, whose {@link #claim} settles it, resumes from what is certain.
     */
    default boolean commitsInLane() {
        return false;
    }

    /**
     * How often a partition's progress is committed again while it does not move; empty (the default) for never. A
     * commit point whose offsets expire unless committed again says how often: the offsets of a group without members
     * expire {@code offsets.retention.minutes} (7 days by default) after their last commit, and an idle partition
     * would lose its progress. Applies to commit points that {@link #commitsInLane}.
     */
    default Optional<Duration> recommitInterval() {
        return Optional.empty();
    }

    /**
     * The last commit of {@code partitions}, whoever owns them, read without claiming them or fencing anyone: a read
     * only, keyed by source partition, a partition never committed absent. A bounded run asks it to learn that the
     * partitions other members own are done, so it must read wherever this commit point keeps the progress (the source
     * group's offsets, a target cluster's transactions); there is no default, so that a commit point, or one wrapping
     * another, cannot fall back to a place that never holds its progress and keep such a run waiting for ever.
     *
     * <p>Called on the engine's consumer thread, which must not wait: the answer comes as a future, completed on
     * whatever thread the reading client uses. An offset still pending in an open transaction is not reported: until
     * that transaction commits, the partition is not done that far.
     */
    KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedProgress(Set<TopicPartition> partitions);

    /** Whether {@code error}, from a commit, means it will never take effect (rather than: the outcome is unknown). */
    boolean refusedForCertain(Exception error);

    /**
     * Waits until every commit started so far has heard its outcome. Called before lost partitions are let go, so
     * that their sink learns what became of their last commits.
     */
    void settleInFlight(Duration timeout);

    /**
     * The partitions are no longer this member's: revoked after their last commit, or {@code lost} (another member
     * may own them already). Nothing to do for the source group; a commit point holding resources per partition
     * frees them here.
     */
    default void release(Collection<TopicPartition> partitions, boolean lost) {
    }

    /**
     * The engine failed: it commits nothing more (a partition's last commit may still be tried, and fail), so a commit
     * point whose commits wait on another cluster stops waiting and lets go of what is in flight there. Without this, a
     * partition whose broker does not answer holds the engine's close, and the restart behind it, until the client
     * gives up (a producer's delivery timeout: two minutes by default). What was not committed is processed again
     * after a restart. Called once: when the drain starts, on the consumer thread, if the engine failed before it, or
     * at a failure during the drain, on the thread that reports it (the consumer thread or a lane's); lanes may still
     * run. The default does nothing: the source
     * group's commit waits on nothing a drain would.
     */
    default void abandon() {
    }

    /** The engine stops; called once, after the last commit. */
    default void close() {
    }

    /** How a commit ended: {@code error} is null when it took effect. */
    @FunctionalInterface
    interface Outcome {
        void completed(Map<TopicPartition, OffsetAndMetadata> offsets, Exception error);
    }

    /** Makes the engine's commit point once the engine has its source consumer. */
    @FunctionalInterface
    interface Factory {
        CommitPoint create(SourceGroup group);
    }

    /** The source consumer group's offset commit: the default, for handlers and archives. */
    static Factory sourceGroup() {
        return SourceGroupCommit::new;
    }
}
