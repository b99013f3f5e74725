package io.sluice.core.sink;

import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Where records go when the engine runs a sink rather than a handler: the contract between the engine and the
 * storage sinks (files, S3, HDFS) or a mirror.
 *
 * <p>The sink takes ownership of each record at {@link #write}; it may buffer. The engine asks for a
 * {@link #checkpoint} on every commit interval: the sink says up to which offset its records are durable, and what
 * to store with that offset in the commit (say, a manifest's name). <b>The engine's
 * {@link io.sluice.core.commit.CommitPoint} makes it true</b> (by default the source group's offset commit): the engine
 * tells the sink whether the commit happened ({@link #committed}, {@link #notCommitted}), and only then may the sink
 * make its output visible. After a restart or a reassignment, {@link #open} hands the sink the data of
 * the partition's last successful commit, so it can finish what that commit promised and discard everything else.
 *
 * <p>Threading: all calls for one partition are made one at a time, in the order listed above, and in offset order
 * for writes, but not always from the same thread: each call happens-before the next. Calls for different
 * partitions run in parallel. {@link #bufferedBytes} may be called from any thread at any time.
 */
public interface Sink extends AutoCloseable {

    /**
     * The partition is now this member's. {@code topicId} tells this topic from an earlier one of the same name (key
     * what the sink stores by it); {@code committedOffset} is where the engine resumes (records below it are done),
     * {@code committedData} what the last successful commit stored for the sink, if anything.
     */
    void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception;

    /**
     * Takes a record. Throw {@link RecordRejectedException} for a record that can never be written (bad input): the
     * engine applies the failure outcome (dead letter, skip, stop) without retrying. Any other exception is the sink's
     * own failure (its storage does not answer, a disk is full): the engine does not retry it (a sink retries its own
     * I/O), and stops, whatever the failure outcome says.
     */
    void write(ConsumerRecord<byte[], byte[]> record) throws Exception;

    /**
     * Makes progress durable for a commit: every record below the returned offset is written where a restart will
     * find it (through the returned data), and the offset must not be beyond the records written so far.
     *
     * @param last true when the partition is being revoked or the engine closes: write out everything held
     */
    SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception;

    /**
     * Whether the sink's output is exactly once: visible only once the commit point took the commit that names it.
     * Then the engine sends dead letters with the commit too, when their topic is in the source cluster (see
     * docs/exactly-once.md); otherwise it publishes each at once, and a crash before the commit can repeat it.
     */
    default boolean exactlyOnce() {
        return false;
    }

    /** The commit of {@code checkpoint} succeeded: the sink may now make its output visible. */
    void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception;

    /**
     * The commit of {@code checkpoint} did not succeed. When {@code certain}, the broker rejected it (this member was
     * fenced, or a rebalance was in progress) and it will never be the committed one; otherwise the outcome is unknown
     * (a timeout) and it may yet be, so its output must be kept for recovery. Either way the partition may stay with
     * this member (a cooperative rebalance can refuse a commit and leave the partition where it is), and the engine
     * goes on from the checkpoint's offset: the sink must keep the checkpoint's output for its next checkpoint, and
     * give up only at {@link #close} what no commit can name any more.
     */
    void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) throws Exception;

    /**
     * The partition is no longer this member's. After {@code revoked}, the engine has committed the last checkpoint
     * (and said so); after a loss, another member may own it already and nothing may be published.
     */
    void close(TopicPartition partition, boolean lost) throws Exception;

    /** Bytes the sink holds in memory for {@code partition}; they count against the engine's memory budget. */
    long bufferedBytes(TopicPartition partition);

    /**
     * The engine needs the memory the sink holds for {@code partition}, and only the sink can free it: the partition
     * is paused at its share of the memory budget, every record handed out for it is written, and what the sink holds
     * ({@link #bufferedBytes}) alone keeps it above the mark where it is fetched again. No write will come, so a
     * sink that frees memory only on its writes would hold the partition paused for good: let go now (say, seal the
     * open files for the next checkpoint), by the sink's usual protocol. Called in order with the partition's other
     * calls, once per such pause; and once when a bounded run's partition is done up to its end while the run waits
     * for partitions of other instances, which wait for this one's to be committed. The default does nothing, for
     * sinks whose checkpoints free what they hold.
     */
    default void relieve(TopicPartition partition) throws Exception {
    }

    /**
     * The engine failed, and what is not committed yet never will be: a sink whose checkpoints wait on something
     * outside (another cluster's acknowledgements) stops waiting, so that the engine's drain does not wait for output
     * that can no longer count; its checkpoints may fail from now on. What was not committed is processed again after a
     * restart. Called once: when the drain starts, on the consumer thread, if the engine failed before it, or at a
     * failure during the drain, on the thread that reports it (the consumer thread or a lane's); lanes may still run. The default does nothing, for sinks whose
     * checkpoints end by themselves (files; storage, within its own retries).
     */
    default void abandon() {
    }

    /**
     * Why what the sink holds cannot be finished now, in words (its destination has not answered for a while: "the
     * target cluster (host:9092) has not answered for 40 s"), or empty. A drain asks while it waits for the sink, a
     * few times a second, and while this is said does not wait on: it ends without its last commit, lets go of what
     * was not committed ({@link #abandon}), and the engine ends failed with a
     * {@link io.sluice.core.DrainAbandonedException}; those records are processed again after a restart. A stop asked
     * for during an outage of the destination took the drain timeout for each step of the drain (35–66 s) and then
     * failed anyway. From the consumer thread, during the drain only. The default says nothing, for sinks whose
     * checkpoints end by themselves.
     */
    default Optional<String> unableToFinish() {
        return Optional.empty();
    }

    /** The whole sink is done (after every partition was closed). */
    @Override
    default void close() throws Exception {
    }
}
