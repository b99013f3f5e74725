package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Local storage runs out of room: the archiving child runs under {@code ulimit -f}, so a file that grows past 1 MiB
 * fails with EFBIG ("File too large"), as on a full disk. The engine stops with an error naming the file and the
 * cause; the committed offset stays at what published files hold; a restart without the limit writes the rest, and
 * every offset is then in exactly one visible file.
 */
@Tag("slow")
class DiskFullTest {

    private static final int SMALL = 5_000;
    private static final int LARGE = 2_500;
    private static final int PER_FILE = 2_500;

    @Test
    void aFullDiskStopsTheEngineWithTheFileAndCauseAndCommitsNothingItDidNotWrite() throws Exception {
        KafkaCluster kafka = SharedKafka.cluster();
        String topic = Names.unique("disk-full");
        String group = Names.unique("disk-full");
        kafka.createTopic(topic, 1);
        Path dir = TestDirs.newDir("disk-full");
        Path root = dir.resolve("archive");
        LocalBackend archive = new LocalBackend(root);

        // small records, 2,500 in one category, then 2,500 in another: two rolls, each well under the limit
        produce(kafka, topic, 0, SMALL, i -> "c" + (i / PER_FILE), i -> "");
        ChildProcess limited = child(kafka, topic, group, root, dir).fileSizeLimit(1024).build().start();
        limited.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
        awaitVisible(archive, SMALL, limited);

        // then incompressible kilobyte records in one category: its file passes 1 MiB long before its 2,500th record
        Random random = new Random(86);
        produce(kafka, topic, SMALL, LARGE, i -> "big", i -> {
            byte[] noise = new byte[768];
            random.nextBytes(noise);
            return Base64.getEncoder().encodeToString(noise);
        });
        int status = limited.exitStatusWithin(Duration.ofSeconds(60)).orElseGet(() -> {
            limited.kill();
            throw new AssertionError("the engine did not stop at the full disk:\n" + limited.tail());
        });
        String failure = limited.awaitLogLine(l -> l.startsWith("SLUICE-FAILED"), Duration.ofSeconds(1));
        assertEquals(1, status, failure);
        assertTrue(failure.contains("File too large") && failure.matches(".*cannot write " + topic
                + "/category=big/" + topic + "\\+0\\+\\d+\\.jsonl\\.zst in file:.*"), failure);
        assertEquals(SMALL, EngineRuns.committed(kafka, group, topic), "committed: exactly what published files hold");

        ChildProcess unlimited = child(kafka, topic, group, root, dir).build().start();
        unlimited.awaitLogLine(l -> l.startsWith("SLUICE-READY"), Duration.ofSeconds(60));
        awaitVisible(archive, SMALL + LARGE, unlimited);
        unlimited.stop(Duration.ofSeconds(30));
        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(archive), Map.of(0, (long) SMALL + LARGE));
    }

    private static ChildJvm.Builder child(KafkaCluster kafka, String topic, String group, Path root, Path dir) {
        return ChildJvm.builder("archiver")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx256m"))
                .mainClass(ArchiverMain.class.getName())
                .args("bootstrap=" + kafka.bootstrapServers(), "topic=" + topic, "group=" + group,
                        "layout={topic}/category={value.category}/", "maxOpenFiles=8", "maxRecords=" + PER_FILE,
                        "root=" + root)
                .workDir(dir);
    }

    /** Waits until {@code records} offsets are visible: published, hence committed. */
    private static void awaitVisible(LocalBackend archive, int records, ChildProcess child) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (VisibleOffsets.read(archive).size() < records) {
            assertTrue(System.nanoTime() < deadline && child.isAlive(), () -> "fewer than " + records
                    + " offsets visible:\n" + child.tail());
            Thread.sleep(100);
        }
    }

    private static void produce(KafkaCluster kafka, String topic, int from, int count,
            java.util.function.IntFunction<String> category, java.util.function.IntFunction<String> payload) {
        try (var producer = new KafkaProducer<>(kafka.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, "{\"category\":\"" + category.apply(i)
                        + "\",\"i\":" + i + ",\"payload\":\"" + payload.apply(i) + "\"}"));
            }
            producer.flush();
        }
    }
}
