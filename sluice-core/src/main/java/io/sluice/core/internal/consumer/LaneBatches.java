package io.sluice.core.internal.consumer;

import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A fetch's records sorted by lane, each lane's in fetch order, so that a lane gets one hand-over per fetch however
 * its records interleave with other lanes'. With key ordering the records of a fetch alternate between lanes at
 * almost every record; handing each change of lane over on its own cost a queue node, an atomic offer and often a
 * worker's wake-up per record, a quarter of the consumer thread's samples in {@code engine-cpu}'s profile (256 lanes a
 * partition, 10,000 keys), where the consumer thread is the bound.
 *
 * <p>The records of a lane are chained by their index in the fetch (an {@code int} per record, no node), and the
 * chains are walked into one array per lane at {@link #handOver}. Order across lanes is not kept, and need not be:
 * lanes are independent, and the ledger was told each offset in fetch order as it was added.
 *
 * <p>Threading: the consumer thread only (one instance per dispatcher, reused fetch after fetch).
 */
final class LaneBatches {

    /** Where a lane's batch goes: its lane's queue, or a test's list. */
    interface Target {
        void handOver(int lane, Object[] records);
    }

    private static final int NONE = -1;

    /** Per lane: the fetch index of its first and last record so far, and how many; first is NONE when none. */
    private final int[] first;
    private final int[] last;
    private final int[] count;
    /** The lanes with records, in the order they got their first. */
    private final int[] touched;
    private int touchedCount;
    /** Per record of the fetch: the index of its lane's next record. */
    private int[] next = new int[512];
    private List<ConsumerRecord<byte[], byte[]>> fetched;

    LaneBatches(int lanes) {
        first = new int[lanes];
        last = new int[lanes];
        count = new int[lanes];
        touched = new int[lanes];
        Arrays.fill(first, NONE);
    }

    /**
     * Starts on a fetch's records of one partition. What was added and not handed over is forgotten: only a dispatch
     * that failed half-way (a lane function that threw) leaves any, and the engine stops on that failure.
     */
    void start(List<ConsumerRecord<byte[], byte[]>> records) {
        for (int t = 0; t < touchedCount; t++) {
            first[touched[t]] = NONE;
            count[touched[t]] = 0;
        }
        touchedCount = 0;
        fetched = records;
        if (next.length < records.size()) {
            next = new int[Math.max(records.size(), next.length * 2)];
        }
    }

    /** The record at {@code index} of the fetch goes to {@code lane}, after the ones added for it before. */
    void add(int lane, int index) {
        if (first[lane] == NONE) {
            first[lane] = index;
            touched[touchedCount++] = lane;
        } else {
            next[last[lane]] = index;
        }
        last[lane] = index;
        count[lane]++;
    }

    /** Hands every lane its records added since the last hand-over, as one array each. */
    void handOver(Target target) {
        for (int t = 0; t < touchedCount; t++) {
            int lane = touched[t];
            Object[] batch = new Object[count[lane]];
            int index = first[lane];
            for (int i = 0; i < batch.length; i++) {
                batch[i] = fetched.get(index);
                index = next[index];
            }
            first[lane] = NONE;
            count[lane] = 0;
            target.handOver(lane, batch);
        }
        touchedCount = 0;
    }
}
