package io.sluice.core.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A 1 GB backlog, a slow handler, and a heap of the budget plus a fixed overhead: the engine must neither run out of
 * memory nor count more than its budget. The overhead, 48 MB, covers the JVM's own objects, the Kafka client and
 * its fetch buffers (the engine sizes those from the budget: a sixteenth of it), and the engine's structures. With
 * four partitions, their queue depths (a fetch of 1 MiB each while the lanes never wait on the network) bind long
 * before their shares of the budget: what is queued stays a few MiB.
 */
@Tag("slow")
class MemoryBudgetTest {

    private static final long BUDGET = 64L * 1024 * 1024;
    private static final int OVERHEAD_MB = 48;

    @Test
    void aSlowHandlerOverAGigabyteBacklogStaysWithinTheBudgetAndTheHeap() {
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("backlog");
        kafka.createTopic(topic, 4);
        produceGigabyte(kafka, topic);

        ChildProcess child = ChildJvm.builder("memory")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx" + (BUDGET / (1024 * 1024) + OVERHEAD_MB) + "m",
                        "-XX:MaxDirectMemorySize=32m", "-XX:+ExitOnOutOfMemoryError", "-XX:+UseSerialGC"))
                .mainClass(MemoryChild.class.getName())
                .args(kafka.bootstrapServers(), topic, Names.unique("memory-group"), Long.toString(BUDGET), "12")
                .workDir(TestDirs.newDir("memory"))
                .build()
                .start();
        String line = child.awaitLogLine(l -> l.startsWith("MEMORY "), Duration.ofSeconds(90));
        assertEquals(0, child.waitForExit(), "no OutOfMemoryError:\n" + child.tail());
        String[] f = line.split(" ");
        long maxQueued = Long.parseLong(f[1]);
        long processed = Long.parseLong(f[2]);
        int maxPaused = Integer.parseInt(f[3]);
        assertTrue(maxQueued <= BUDGET, "the budget gauge peaked at " + maxQueued + " > " + BUDGET);
        assertTrue(maxQueued >= 1024 * 1024, "a backlog was queued, not handed out a record at a time: " + maxQueued);
        assertTrue(maxPaused > 0, "partitions were paused for backpressure");
        assertTrue(processed > 1_000, "records were processed: " + processed);
    }

    private static void produceGigabyte(KafkaCluster kafka, String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 1024 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        Random random = new Random(1);
        byte[] filler = new byte[1024];
        for (int i = 0; i < filler.length; i++) {
            filler[i] = (byte) ('a' + random.nextInt(8)); // compressible, as logs are
        }
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 1_000_000; i++) {
                producer.send(new ProducerRecord<>(topic, Integer.toString(i % 5_000).getBytes(), filler));
            }
            producer.flush();
        }
    }
}
