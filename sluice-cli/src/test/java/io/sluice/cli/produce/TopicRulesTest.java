package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What a topic takes of a record, judged before it is sent, by the broker's rules for CreateTime and compaction. */
class TopicRulesTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final Origin ORIGIN = new Origin("in.jsonl", 7, 100, 150);

    private static InputRecord stamped(Long timestamp, String key) {
        return new InputRecord(ORIGIN, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                "v".getBytes(StandardCharsets.UTF_8), List.of(), null, timestamp);
    }

    private final TopicRules hourAhead = new TopicRules("t", 2, true, Duration.ofHours(1), Duration.ofDays(7), false,
            1_000);

    @Test
    void aTimeWithinTheTopicsLimitsOrNoneAtAllPasses() {
        assertEquals(Optional.empty(), hourAhead.refusal(stamped(NOW + 3_599_000, "k"), NOW));
        assertEquals(Optional.empty(), hourAhead.refusal(stamped(NOW - Duration.ofDays(6).toMillis(), "k"), NOW));
        assertEquals(Optional.empty(), hourAhead.refusal(stamped(null, "k"), NOW), "the producer stamps it now");
        assertEquals(Optional.empty(), hourAhead.refusal(stamped(null, null), NOW), "a key only when compacted");
    }

    @Test
    void aTimeBeyondTheLimitsIsRefusedInWords() {
        BadInputException ahead = hourAhead.refusal(stamped(NOW + Duration.ofDays(2).toMillis(), "k"), NOW)
                .orElseThrow();
        assertEquals("timestamp 1800172800000 (2027-01-17T08:00:00Z) is 2 d ahead of this machine's clock; topic t "
                + "takes timestamps at most 1 h ahead (its message.timestamp.after.max.ms)", ahead.getMessage());
        assertTrue(!ahead.malformed(), "the line is well formed");
        BadInputException behind = hourAhead.refusal(stamped(NOW - Duration.ofDays(8).toMillis(), "k"), NOW)
                .orElseThrow();
        assertTrue(behind.getMessage().contains("is 8 d behind this machine's clock; topic t takes timestamps at "
                + "most 7 d old (its message.timestamp.before.max.ms)"), behind.getMessage());
    }

    @Test
    void aLogAppendTimeTopicTakesAnyTimeAndACompactedOneNeedsAKey() {
        TopicRules appendTime = new TopicRules("t", 2, false, Duration.ofHours(1), Duration.ofHours(1), true,
                Long.MAX_VALUE);
        assertEquals(Optional.empty(), appendTime.refusal(stamped(NOW + Duration.ofDays(900).toMillis(), "k"), NOW));
        assertEquals("topic t is compacted (cleanup.policy compact) and takes only records with a key; this one has "
                + "none", appendTime.refusal(stamped(null, null), NOW).orElseThrow().getMessage());
    }

    /**
     * As the producer counts it or a few bytes more, never less (Kafka 4.3's DefaultRecordBatch
     * .estimateBatchSizeUpperBound: a null key and a 918-byte value are 1,004 bytes to it).
     */
    @Test
    void aRecordLargerThanOneRequestMayCarryIsRefused() {
        InputRecord fits = new InputRecord(ORIGIN, null, new byte[1_000 - 97], List.of(), null, null);
        assertEquals(1_000, TopicRules.framedSize(fits));
        assertEquals(Optional.empty(), hourAhead.refusal(fits, NOW));
        InputRecord over = new InputRecord(ORIGIN, "k".getBytes(StandardCharsets.UTF_8), new byte[1_000 - 97],
                List.of(new org.apache.kafka.common.header.internals.RecordHeader("h", new byte[3])), null, null);
        assertEquals(1_000 + 1 + 10 + 1 + 3, TopicRules.framedSize(over));
        assertEquals("the record is 1,015 bytes with Kafka's framing, more than the 1,000 one request may carry "
                + "(max.request.size: the topic's max.message.bytes when that is less than 1 MiB; -X max.request.size "
                + "for a larger one, up to what the topic takes)", hourAhead.refusal(over, NOW).orElseThrow()
                        .getMessage());
    }

    @Test
    void aPartitionTheTopicLacksIsRefused() {
        InputRecord toFive = new InputRecord(ORIGIN, null, new byte[1], List.of(), 5, null);
        assertEquals("field \"partition\": the topic has 2 partition(s), 0 to 1, not 5",
                hourAhead.refusal(toFive, NOW).orElseThrow().getMessage());
    }
}
