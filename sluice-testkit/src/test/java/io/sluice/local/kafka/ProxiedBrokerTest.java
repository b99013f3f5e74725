package io.sluice.local.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.testkit.Names;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class ProxiedBrokerTest {

    @Test
    void aCutMakesTheClientTimeOutAndRestoreLetsItContinue() throws Exception {
        try (KafkaCluster kafka = KafkaCluster.builder().name("proxied").proxied().start()) {
            String topic = Names.unique("through-proxy");
            kafka.createTopic(topic, 1);
            Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000);
            props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2_000);
            props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000);
            props.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200);
            try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
                producer.send(new ProducerRecord<>(topic, "before")).get(10, TimeUnit.SECONDS);

                kafka.node(1).proxy().cut();
                Future<RecordMetadata> during = producer.send(new ProducerRecord<>(topic, "during"));
                ExecutionException e = assertThrows(ExecutionException.class, () -> during.get(10, TimeUnit.SECONDS));
                assertInstanceOf(TimeoutException.class, e.getCause());

                kafka.node(1).proxy().restore();
                producer.send(new ProducerRecord<>(topic, "after")).get(10, TimeUnit.SECONDS);
            }
            // the admin client uses the internal listener, which the proxy does not touch
            assertEquals(java.util.List.of("before", "after"),
                    TestRecords.values(TestRecords.readAll(kafka.clientProperties(Listener.PLAINTEXT), topic,
                            Duration.ofSeconds(30))));
        }
    }
}
