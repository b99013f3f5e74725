package io.sluice.cli.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliChild;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM while a mirror starts (here: waiting for a target that accepts connections and never answers) ended the
 * process with status 143 and not a word. Now the probe says what it waits for, and the signal what it stopped.
 */
class MirrorStartSignalTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aSignalWhileTheMirrorWaitsForItsTargetSaysWhatItStopped() throws Exception {
        Path dir = TestDirs.newDir("mirror-start-signal");
        // the kernel completes connections to a listening socket nobody accepts on: a target that never answers
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String target = "127.0.0.1:" + silent.getLocalPort();
            Path file = Files.writeString(dir.resolve("mirror.yaml"), """
                    source:
                      bootstrap-servers: %s
                      topics: [%s]
                    target:
                      bootstrap-servers: %s
                    mirror:
                      name: %s
                    """.formatted(kafka.bootstrapServers(), Names.unique("orders"), target, Names.unique("m")));
            try (CliChild child = CliChild.start(dir, "mirror", file.toString())) {
                child.awaitOutput("sluice mirror (the target cluster): waiting for " + target + " to answer",
                        Duration.ofSeconds(60));
                child.terminate();
                assertEquals(143, child.exitStatus(Duration.ofSeconds(30)), child.output());
                assertTrue(child.output().contains("sluice mirror: stopped by a signal while starting, before the run "
                        + "could drain: nothing of it is lost, and a restart goes on from the last commit"),
                        child.output());
            }
        }
    }
}
