package io.sluice.cli.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * {@code verify} of a pipeline that skips the records it cannot write: the records skipped are missing by the
 * pipeline's own choice, and the report's advice (restore the files from a backup) read as if the archive had lost
 * them (a new user's run). A note says so.
 */
class SkippedRecordsTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void theRecordsAPipelineSkipsAreSaidToBeMissingByItsChoice() throws Exception {
        String topic = Names.unique("skipping");
        kafka.createTopic(topic, 1);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(TestRecords.producerProperties(
                kafka.clientProperties(Listener.PLAINTEXT)), new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String value : new String[] {"{\"n\":0}", "not json", "{\"n\":2}"}) {
                producer.send(new ProducerRecord<>(topic, value.getBytes(StandardCharsets.UTF_8)));
            }
        }
        Path dir = TestDirs.newDir("skipping");
        Path pipeline = Files.writeString(dir.resolve("p.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                sink:
                  location: archive/
                  template: "{topic}/"
                  format: jsonl
                processing:
                  on-failure: skip
                """.formatted(kafka.bootstrapServers(), topic, topic));
        assertEquals(ExitStatus.OK, Cli.run("run", pipeline.toString(), "--until-end").status());

        Cli.Result verify = Cli.run("verify", pipeline.toString());

        assertEquals(ExitStatus.FAILURE, verify.status(), verify.out() + verify.err());
        assertTrue(verify.err().contains("note: this pipeline skips the records it cannot write (processing.on-failure: "
                + "skip), so the offsets it skipped are missing here by design"), verify.err());
    }
}
