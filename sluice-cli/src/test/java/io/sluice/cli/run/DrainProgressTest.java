package io.sluice.cli.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliChild;
import io.sluice.cli.EngineTestSupport;
import io.sluice.core.crash.CrashPoints;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A drain that takes long (here: held at its final commit, as a slow cluster would hold it) keeps the progress line
 * going: the command showed nothing from "stopping (signal received)" to its end, which read as a hang.
 */
class DrainProgressTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aLongDrainKeepsShowingWhatTheStopDoes() throws Exception {
        String topic = Names.unique("drain");
        kafka.createTopic(topic, 1);
        EngineTestSupport.produceJson(kafka, topic, 50);
        Path dir = TestDirs.newDir("drain-progress");
        Path go = dir.resolve("go");
        Path pipeline = Files.writeString(dir.resolve("pipeline.yaml"), """
                source:
                  bootstrap-servers: %s
                  topics: [%s]
                  group: %s
                sink:
                  location: %s
                  format: jsonl
                """.formatted(kafka.bootstrapServers(), topic, Names.unique("drainer"), dir.resolve("archive")));
        List<String> pause = List.of("-Dsluice.pause.at=" + CrashPoints.CLOSE_BEFORE_COMMIT + ":1",
                "-Dsluice.pause.until=" + go);
        try (CliChild child = CliChild.start(dir, pause, "run", pipeline.toString(), "--progress-every", "1s")) {
            child.awaitOutput("archiving: 50 records", Duration.ofSeconds(60));
            child.terminate();
            child.awaitOutput(CrashPoints.PAUSED + CrashPoints.CLOSE_BEFORE_COMMIT, Duration.ofSeconds(60));
            long shown = System.nanoTime();
            while (stoppingLines(child) < 2) {
                assertTrue(System.nanoTime() - shown < Duration.ofSeconds(20).toNanos(),
                        "no progress line while the drain waits:\n" + child.output());
                Thread.sleep(50);
            }
            Files.createFile(go);
            assertEquals(0, child.exitStatus(Duration.ofSeconds(60)), child.output());
            assertTrue(child.output().contains("archiving: 50 records · stopping: "), child.output());
        }
    }

    private static long stoppingLines(CliChild child) {
        String output = child.output();
        int paused = output.indexOf(CrashPoints.PAUSED);
        return output.substring(paused).lines().filter(l -> l.contains(" · stopping: ")).count();
    }
}
