package io.sluice.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.junit.jupiter.api.Test;

class DeliveryFailureTest {

    @Test
    void theKindOfErrorIsSaidInWordsAndALimitTheUserNeverSetIsExplained() {
        assertEquals("in.jsonl:7: record too large: The message is 5086 bytes when serialized which is larger than "
                + "2000, which is the value of the max.request.size configuration. (sluice produce sets "
                + "max.request.size to the topic's max.message.bytes when that is below 1 MiB, unless -X "
                + "max.request.size is given)", new DeliveryFailure("in.jsonl:7", new RecordTooLargeException(
                        "The message is 5086 bytes when serialized which is larger than 2000, which is the value of "
                                + "the max.request.size configuration.")).toString());
        assertEquals("in.jsonl:8: the broker is away", new DeliveryFailure("in.jsonl:8",
                new KafkaException("the broker is away")).toString(), "a generic class says nothing: left out");
    }
}
