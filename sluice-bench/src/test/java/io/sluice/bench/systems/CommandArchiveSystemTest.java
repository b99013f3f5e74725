package io.sluice.bench.systems;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandArchiveSystemTest {

    @Test
    void theHeapPeakCountsCollectionsNotRemarkOrCleanup(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, String.join("\n",
                "[0.004s][info][gc] Using G1",
                "[1.2s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 34M->13M(380M) 9.881ms",
                "[2.4s][info][gc] GC(6) Pause Young (Normal) (GCLocker Initiated GC) 112M->69M(380M) 2.591ms",
                // eden filled since GC(6) is still in these two figures: they are not what the heap kept
                "[8.9s][info][gc] GC(7) Pause Remark 181M->108M(374M) 3.820ms",
                "[9.0s][info][gc] GC(7) Pause Cleanup 227M->227M(374M) 0.254ms",
                "[9.5s][info][gc] GC(8) Pause Young (Mixed) (G1 Evacuation Pause) 92M->74M(374M) 1.2ms",
                "[9.9s][info][gc] GC(9) Pause Full (System.gc()) 80M->71M(374M) 30.1ms", ""));
        assertEquals(74L << 20, CommandArchiveSystem.heapPeakBytes(log));
    }

    @Test
    void aRunWithNoCollectionReportsTheHeapInUseAtExit(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, String.join("\n", "[0.004s][info][gc] Using G1",
                "[0.9s][info][gc,heap,exit]  garbage-first heap   total 397312K, used 17947K [0x00000000c0000000, 0x0)",
                ""));
        assertEquals(17947L << 10, CommandArchiveSystem.heapPeakBytes(log));
    }
}
