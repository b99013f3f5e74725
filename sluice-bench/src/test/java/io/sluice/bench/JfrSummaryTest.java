package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/** A recording of this JVM spinning in one method: the summary must name that method, its thread and the GC. */
class JfrSummaryTest {

    private static volatile long sink;

    @Test
    void theMethodThatSpinsIsTheHottestAndTheCollectionIsCounted() throws Exception {
        Path file = TestDirs.newDir("jfr").resolve("spin.jfr");
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.enable("jdk.GarbageCollection");
            recording.start();
            spin(Duration.ofMillis(600));
            System.gc();
            recording.stop();
            recording.dump(file);
        }
        JfrSummary summary = JfrSummary.summarize(file);
        assertTrue(summary.inclusiveShare("JfrSummaryTest.spin") >= 0.5,
                "spin on the stack in " + summary.inclusiveShare("JfrSummaryTest.spin") + " of the samples");
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        summary.print("spin.jfr", new PrintStream(text, true, StandardCharsets.UTF_8));
        String printed = text.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("JfrSummaryTest.spin"), printed);
        assertTrue(printed.matches("(?s).*-- collections\\n  \\S+ +\\d+, pauses \\d+\\.\\d\\d s\\n.*"), printed);
        assertEquals("worker-#-of-pool-#", JfrSummary.threadName("worker-3-of-pool-12"));
    }

    private static void spin(Duration time) {
        long end = System.nanoTime() + time.toNanos();
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 31 + i;
            }
        }
        sink = x;
    }
}
