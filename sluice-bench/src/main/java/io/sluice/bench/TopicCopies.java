package io.sluice.bench;

import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.Map;

/**
 * How many copies of each record a topic holds, as a read_committed reader sees it from the beginning to the end
 * offsets of when it starts ({@link TestRecords#readEach}): the records are told apart by the {@code seq} their
 * values carry, never by offsets, so a record written twice counts twice and a lost one zero times. Offsets would
 * count transaction markers too.
 *
 * <p>Threading: one thread.
 */
public final class TopicCopies {

    private static final Duration TIMEOUT = Duration.ofSeconds(300);

    private final int[] copies;
    private final long total;

    private TopicCopies(int[] copies, long total) {
        this.copies = copies;
        this.total = total;
    }

    /** Reads every partition of {@code topic}, whose records are numbered 0 to {@code records} - 1. */
    public static TopicCopies read(Map<String, Object> client, String topic, int records) {
        int[] copies = new int[records];
        long total = TestRecords.readEach(client, topic, TIMEOUT, r -> copies[BenchData.seqOf(r.value())]++);
        return new TopicCopies(copies, total);
    }

    /** The copies of record {@code seq} in the topic: 0 lost (or never written), 1 once, more duplicated. */
    public int of(int seq) {
        return copies[seq];
    }

    /** Every record read, copies included. */
    public long total() {
        return total;
    }

    /** The records present at least once. */
    public long distinct() {
        long n = 0;
        for (int c : copies) {
            if (c > 0) {
                n++;
            }
        }
        return n;
    }
}
