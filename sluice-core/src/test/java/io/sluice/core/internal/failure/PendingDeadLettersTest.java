package io.sluice.core.internal.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.wire.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PendingDeadLettersTest {

    private static final TopicPartition P0 = new TopicPartition("orders", 0);
    private static final TopicPartition P1 = new TopicPartition("orders", 1);

    private final PendingDeadLetters pending = new PendingDeadLetters("orders-dlq", "orders-archive", topic -> null);

    @Test
    void aCommitTakesTheLettersBelowItsOffsetPerPartitionAndLeavesTheLaterOnes() {
        hold(P0, 3, 7, 10, 12);
        hold(P1, 0, 5);

        PendingDeadLetters.Batch batch =
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(11), P1, new OffsetAndMetadata(5)));

        assertEquals(Map.of(P0, List.of(3L, 7L, 10L), P1, List.of(0L)), batch.offsets(),
                "the committed offset is the next record to read: a letter at it is not covered");
        assertEquals(2, pending.size());
        assertEquals(Map.of(P0, List.of(12L), P1, List.of(5L)),
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(13), P1, new OffsetAndMetadata(6))).offsets());
        assertEquals(0, pending.size());
    }

    @Test
    void aCommitOfOtherPartitionsOrOfNoLetterTakesNothing() {
        hold(P0, 4);

        assertTrue(pending.takeBelow(Map.of(P1, new OffsetAndMetadata(100))).isEmpty());
        assertTrue(pending.takeBelow(Map.of(P0, new OffsetAndMetadata(4))).isEmpty());
        assertEquals(1, pending.size());
    }

    @Test
    void theLettersAreTheDeadLettersOfTheirRecordsInOffsetOrder() {
        hold(P0, 9, 2);

        List<ProducerRecord<byte[], byte[]>> letters =
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(10))).records();

        assertEquals(List.of("2", "9"), letters.stream().map(l -> header(l, DeadLetterHeaders.SOURCE_OFFSET)).toList());
        assertEquals("orders-dlq", letters.get(0).topic());
        assertEquals("value-2", new String(letters.get(0).value(), StandardCharsets.UTF_8));
        assertEquals("bad input", header(letters.get(0), DeadLetterHeaders.ERROR_MESSAGE));
    }

    @Test
    void aCommitThatDidNotHappenPutsItsLettersBackForTheNext() {
        hold(P0, 1, 2);
        PendingDeadLetters.Batch refused = pending.takeBelow(Map.of(P0, new OffsetAndMetadata(2)));
        hold(P0, 3);

        pending.restore(refused);

        assertEquals(Map.of(P0, List.of(1L, 2L, 3L)),
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(4))).offsets());
    }

    @Test
    void aRecordDeadLetteredTwiceByThisMemberLeavesOneLetter() {
        hold(P0, 5);
        hold(P0, 5);

        assertEquals(Map.of(P0, List.of(5L)), pending.takeBelow(Map.of(P0, new OffsetAndMetadata(6))).offsets());
    }

    @Test
    void droppedPartitionsLoseTheirLettersAndABatchCanLeaveThemOut() {
        hold(P0, 1);
        hold(P1, 1);
        PendingDeadLetters.Batch both =
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(2), P1, new OffsetAndMetadata(2)));
        hold(P0, 3);
        hold(P1, 3);

        pending.drop(List.of(P1));
        pending.restore(both.without(List.of(P1)));

        assertEquals(Map.of(P0, List.of(1L, 3L)),
                pending.takeBelow(Map.of(P0, new OffsetAndMetadata(9), P1, new OffsetAndMetadata(9))).offsets());
    }

    private void hold(TopicPartition tp, long... offsets) {
        for (long offset : offsets) {
            pending.deadLetter(new ConsumerRecord<>(tp.topic(), tp.partition(), offset,
                    "key".getBytes(StandardCharsets.UTF_8), ("value-" + offset).getBytes(StandardCharsets.UTF_8)),
                    new IllegalArgumentException("bad input"), 1);
        }
    }

    private static String header(ProducerRecord<byte[], byte[]> letter, String name) {
        return new String(letter.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
