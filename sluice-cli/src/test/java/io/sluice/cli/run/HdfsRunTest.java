package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedHdfs;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * A pipeline to the real HDFS (MiniDFSCluster in a child JVM), as examples/hdfs.yaml writes it but on one topic of its
 * own: {@code run --until-end} archives every record, and {@code verify} reads the files back from HDFS and finds
 * every offset exactly once.
 */
class HdfsRunTest {

    private static final int RECORDS = 300;

    @Test
    void aPipelineToHdfsRunsToTheEndAndVerifiesClean() throws Exception {
        KafkaCluster kafka = SharedKafka.cluster();
        URI namenode = SharedHdfs.server().uri();
        String topic = Names.unique("logs");
        kafka.createTopic(topic, 2);
        try (var producer = new KafkaProducer<>(kafka.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "{\"service\":\"web\",\"line\":" + i + "}"));
            }
            producer.flush();
        }
        Path pipeline = TestDirs.newDir("hdfs-run").resolve("hdfs.yaml");
        Files.writeString(pipeline, """
                source:
                  bootstrap-servers: ${KAFKA_BROKERS}
                  topics: [%s]
                  group: %s-to-hdfs
                sink:
                  location: hdfs://${NAMENODE}/archive/%s/
                  template: "{topic}/dt={ts:yyyy-MM-dd}/"
                  format: jsonl
                  codec: gzip
                """.formatted(topic, topic, topic));
        Map<String, String> env = Map.of("KAFKA_BROKERS", kafka.bootstrapServers(), "NAMENODE",
                namenode.getAuthority());

        Cli.Result run = Cli.run(env, "run", pipeline.toString(), "--until-end");
        assertEquals(ExitStatus.OK, run.status(), run.err());
        assertTrue(run.err().contains("stopped cleanly: " + RECORDS + " records done"), run.err());

        Cli.Result verify = Cli.run(env, "verify", pipeline.toString());
        assertEquals(ExitStatus.OK, verify.status(), verify.out() + verify.err());
        assertTrue(verify.out().startsWith("OK: every expected offset of " + topic + " appears exactly once in "),
                verify.out());
    }
}
