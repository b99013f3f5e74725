package io.sluice.merge.write;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** What the output topic would refuse, said before the record joins a transaction the broker would then fail. */
class OutputLimitsTest {

    private static final long NOW = 1_800_000_000_000L;

    @Test
    void aCompactedOutputRefusesARecordWithoutAKeyOnly() {
        OutputLimits compacted = new OutputLimits(1 << 20, Long.MAX_VALUE, Long.MAX_VALUE, true, false);
        assertTrue(compacted.refusal(record(null, NOW), 64, NOW).contains("it has no key, and the output topic is "
                + "compacted (cleanup.policy compact)"));
        assertNull(compacted.refusal(record(new byte[] {1}, NOW), 64, NOW));
        OutputLimits deleting = new OutputLimits(1 << 20, Long.MAX_VALUE, Long.MAX_VALUE, false, false);
        assertNull(deleting.refusal(record(null, NOW), 64, NOW));
    }

    @Test
    void aTimestampFurtherBackThanTheOutputTakesIsRefusedWithItsSetting() {
        OutputLimits limits = new OutputLimits(1 << 20, 3_600_000, 86_400_000, false, false);
        assertTrue(limits.refusal(record(new byte[] {1}, NOW - 86_400_001), 64, NOW).contains("in the past, more than "
                + "the output topic accepts (message.timestamp.before.max.ms 86400000)"));
        // the broker judges it a moment later, when it arrives: a record at the very limit would fail the transaction
        assertTrue(limits.refusal(record(new byte[] {1}, NOW - 86_400_000 + OutputLimits.PAST_MARGIN_MILLIS - 1), 64,
                NOW) != null);
        assertNull(limits.refusal(record(new byte[] {1}, NOW - 86_400_000 + OutputLimits.PAST_MARGIN_MILLIS), 64, NOW));
        assertTrue(limits.refusal(record(new byte[] {1}, NOW + 3_600_001), 64, NOW).contains("in the future"));
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] key, long timestamp) {
        return new ConsumerRecord<>("in", 0, 7, timestamp, TimestampType.CREATE_TIME, key == null ? -1 : key.length, 2,
                key, new byte[] {'{', '}'}, new RecordHeaders(), Optional.empty());
    }
}
