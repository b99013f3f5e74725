package io.sluice.bench.acks;

import io.sluice.bench.BenchData;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.Map;

/**
 * How many copies of each record a topic holds, as a read_committed reader sees it from the beginning to the end
 * offsets of when it starts ({@link TestRecords#readEach}): the records are told apart by the {@code seq} their
 * values carry, never by offsets, so a record written twice counts twice and a lost one zero times.
 *
 * <p>Threading: one thread.
 */
final class TopicCopies {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private final int[] copies;

    private TopicCopies(int[] copies) {
        this.copies = copies;
    }

    /** Reads every partition of {@code topic}, whose records are numbered 0 to {@code records} - 1. */
    static TopicCopies read(Map<String, Object> client, String topic, int records) {
        int[] copies = new int[records];
        TestRecords.readEach(client, topic, TIMEOUT, r -> copies[BenchData.seqOf(r.value())]++);
        return new TopicCopies(copies);
    }

    /** The copies of record {@code seq} in the topic: 0 lost (or never written), 1 once, more duplicated. */
    int of(int seq) {
        return copies[seq];
    }
}
