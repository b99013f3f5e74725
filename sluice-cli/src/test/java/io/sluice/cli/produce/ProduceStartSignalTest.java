package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.CliChild;
import io.sluice.testkit.TestDirs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * SIGTERM while {@code sluice produce} starts (here: waiting for a broker address that accepts connections and never
 * answers) ended the process with status 143 and not a word (a review). Now the signal says what it stopped.
 */
class ProduceStartSignalTest {

    @Test
    void aSignalWhileProduceWaitsForItsBrokerSaysWhatItStopped() throws Exception {
        Path dir = TestDirs.newDir("produce-start-signal");
        Path input = Files.writeString(dir.resolve("in.txt"), "one\ntwo\n");
        // the kernel completes connections to a listening socket nobody accepts on: a broker that never answers
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String broker = "127.0.0.1:" + silent.getLocalPort();
            try (CliChild child = CliChild.start(dir, "produce", "-b", broker, "-t", "t", input.toString())) {
                child.awaitOutput("sluice produce: waiting for " + broker + " to answer", Duration.ofSeconds(60));
                child.terminate();
                assertEquals(143, child.exitStatus(Duration.ofSeconds(30)), child.output());
                assertTrue(child.output().contains("sluice produce: stopped by a signal while starting, before the "
                        + "run could drain: nothing of it is lost"), child.output());
            }
        }
    }
}
