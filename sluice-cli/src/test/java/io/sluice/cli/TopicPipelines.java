package io.sluice.cli;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** A topic of one partition holding the given values, and a pipeline file that archives it as JSON Lines. */
public final class TopicPipelines {

    private TopicPipelines() {
    }

    /**
     * Creates {@code topic} in {@code kafka} with {@code values}, and writes {@code dir/p.yaml}: the topic, a group of
     * its name, the folder {@code archive/} under {@code template}, JSON Lines, then {@code more} (YAML lines of the
     * sink section, indented, and any later sections).
     */
    public static Path archiving(KafkaCluster kafka, String topic, Path dir, String template, String more,
            String... values) throws Exception {
        kafka.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(TestRecords.producerProperties(
                kafka.clientProperties(Listener.PLAINTEXT)), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8)));
            }
        }
        return Files.writeString(dir.resolve("p.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                sink:
                  location: archive/
                  template: "%s"
                  format: jsonl
                """.formatted(kafka.bootstrapServers(), topic, topic, template) + more);
    }
}
