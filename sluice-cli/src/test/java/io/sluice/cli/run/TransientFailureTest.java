package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.RecordsLostException;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/** Which failures a new engine cures: by name, not every retriable Kafka error. */
class TransientFailureTest {

    @Test
    void aClusterThatDidNotAnswerOrAnAbortedTransactionIsCuredByARestart() {
        assertTrue(TransientFailure.is(new IllegalStateException("the sink failed to commit orders-0",
                new KafkaException(new TimeoutException("Expiring 53 record(s)")))));
        assertTrue(TransientFailure.is(new KafkaException(new InvalidProducerEpochException("an old epoch"))));
        assertTrue(TransientFailure.is(new IllegalStateException("cannot reach the target cluster: no answer within "
                + "30 s", new java.util.concurrent.TimeoutException())));
    }

    /** A name the brokers had at the command's first start, which probed them: a name service's hiccup since. */
    @Test
    void aClientMadeAgainThatCannotResolveTheBrokersNamesIsCuredByARestart() {
        Map<String, Object> props = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "broker.invalid:9092");
        KafkaException made = assertThrows(KafkaException.class,
                () -> new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer()).close());
        assertTrue(TransientFailure.is(made), made.getCause().getMessage());
        assertFalse(TransientFailure.is(new KafkaException(new ConfigException("Invalid value x for "
                + "configuration acks"))), "a refusal of a setting is no hiccup");
    }

    @Test
    void whatStaysAsItIsHoweverOftenTheEngineStartsIsNot() {
        assertFalse(TransientFailure.is(new KafkaException(new CorruptRecordException("a corrupt batch"))));
        assertFalse(TransientFailure.is(new KafkaException(new NotEnoughReplicasException("min.insync.replicas 3"))));
        assertFalse(TransientFailure.is(new KafkaException(new UnknownTopicOrPartitionException("no such topic"))));
        assertFalse(TransientFailure.is(new KafkaException(new SaslAuthenticationException("refused"))));
        assertFalse(TransientFailure.is(new IllegalStateException("no cause")));
        RecordsLostException lost = new RecordsLostException("offsets 0 to 9 of orders-0", "a new mirror.name");
        lost.initCause(new TimeoutException("while listing offsets"));
        assertFalse(TransientFailure.is(lost), "records lost need a person, whatever came with them");
    }
}
