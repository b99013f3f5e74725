package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SluiceFileNameTest {

    @Test
    void theSinksNamesParseAndOthersDoNot() {
        assertEquals(Optional.of(new SluiceFileName("events.v2_x-y", 3, 1200)),
                SluiceFileName.parse("events.v2_x-y+3+1200.jsonl.zst"));
        assertEquals(Optional.of(new SluiceFileName("t", 0, 400)), SluiceFileName.parse("t+0+400-copy.jsonl.zst"));
        assertTrue(SluiceFileName.parse("part-00001.jsonl.zst").isEmpty());
        assertTrue(SluiceFileName.parse("t+x+1.jsonl").isEmpty());
        assertTrue(SluiceFileName.parse("t+0+.jsonl").isEmpty());
        assertTrue(SluiceFileName.parse("+0+1.jsonl").isEmpty());
        assertTrue(SluiceFileName.parse("a+b+0+1.jsonl").isEmpty());
        assertEquals("t+0+1.jsonl", SluiceFileName.fileNameOf("dir/sub/t+0+1.jsonl"));
        assertEquals("x", SluiceFileName.fileNameOf("x"));
    }

    @Test
    void onlyTheSinksOwnNamesAreSinkNames() {
        assertEquals(Optional.of(new SluiceFileName("t", 1, 6)), SluiceFileName.parseSinkName("t+1+6.zstd.parquet"));
        assertEquals(Optional.of(new SluiceFileName("t", 0, 400)), SluiceFileName.parseSinkName("t+0+400.jsonl.zst"));
        assertTrue(SluiceFileName.parseSinkName("t+0+400.avro").isPresent());
        assertTrue(SluiceFileName.parseSinkName("t+0+400.rawlen.gz").isPresent());
        assertTrue(SluiceFileName.parseSinkName("t+0+400-copy.jsonl.zst").isEmpty());
        assertTrue(SluiceFileName.parseSinkName("t+0+400.jsonl.zst.bak.jsonl.zst").isEmpty());
        assertTrue(SluiceFileName.parseSinkName("t+0+400.txt").isEmpty());
        assertTrue(SluiceFileName.parseSinkName("part-00001.jsonl.zst").isEmpty());
    }
}
