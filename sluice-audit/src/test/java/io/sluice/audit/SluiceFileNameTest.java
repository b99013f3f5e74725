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
}
