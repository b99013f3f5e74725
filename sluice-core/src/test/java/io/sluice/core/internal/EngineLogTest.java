package io.sluice.core.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

class EngineLogTest {

    /** Kafka's producer wraps a failed transaction's cause with its toString(): the class name is not words. */
    @Test
    void anErrorIsSaidInItsWordsWithoutTheClassNamesWrappingPutInIt() {
        KafkaException wrapped = new KafkaException(new TimeoutException("Expiring 53 record(s) for orders-0: 3000 ms "
                + "has passed since batch creation"));
        assertEquals("Expiring 53 record(s) for orders-0: 3000 ms has passed since batch creation",
                EngineLog.words(wrapped));
        assertEquals("IllegalStateException", EngineLog.words(new IllegalStateException()));
        assertEquals("the path a.b.Thing stays", EngineLog.words(new IllegalStateException("the path a.b.Thing stays")));
        assertEquals("Expiring 3 record(s) for com.acme.PaymentError-0", EngineLog.words(new KafkaException(
                "Expiring 3 record(s) for com.acme.PaymentError-0")), "a topic's name is not a class's");
        assertEquals("KafkaException", EngineLog.words(new KafkaException(new org.apache.kafka.common.errors
                .WakeupException())), "a message of nothing but a class name: the class's simple name");
        assertEquals("the group rebalanced while the commit was under way, so the coordinator refused it (a partition "
                + "may have moved to another member, which goes on from the last commit)", EngineLog.words(
                        new org.apache.kafka.clients.consumer.CommitFailedException()),
                "not the client's advice to call poll()");
    }
}
