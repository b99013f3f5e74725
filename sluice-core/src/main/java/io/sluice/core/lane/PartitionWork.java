package io.sluice.core.lane;

import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a lane needs from the partition it belongs to. Implemented by the engine's partition state.
 *
 * <p>Threading: called from worker threads; implementations must be safe for that.
 */
public interface PartitionWork {

    /** False once the partition is revoked or the engine drains: queued records are then left unprocessed. */
    boolean isOpen();

    /**
     * Processes one record to its end (attempts, retries, failure outcome).
     *
     * @return true when the record is done and its offset may be committed; false when it must stay pending (the
     *         engine is stopping because of it)
     */
    boolean process(ConsumerRecord<byte[], byte[]> record);

    /** Reports records done, in any order, with the bytes they held. {@code offsets[0..count)} are valid. */
    void completed(long[] offsets, int count, long bytes);
}
