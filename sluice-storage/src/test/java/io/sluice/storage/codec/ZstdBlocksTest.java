package io.sluice.storage.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ZstdBlocksTest {

    @Test
    void blocksOfEverySizeComeBackAndAreFramesAStreamingReaderReads() throws Exception {
        Random random = new Random(17);
        try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
            // from large to small: the buffer, grown for the first, must not leak its old bytes into the others
            for (int size : new int[] {300_000, 65_536, 1_000, 1, 0}) {
                byte[] block = new byte[size];
                for (int i = 0; i < size; i++) {
                    block[i] = (byte) (i % 7 == 0 ? random.nextInt() : 'a' + i % 13);
                }
                byte[] padded = new byte[size + 10];
                System.arraycopy(block, 0, padded, 5, size);
                byte[] frame = zstd.compress(padded, 5, size);
                assertArrayEquals(block, zstd.decompress(frame, size), "one call back, " + size + " bytes");
                try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame))) {
                    assertArrayEquals(block, in.readAllBytes(), "a streaming reader, " + size + " bytes");
                }
                zstd.gather().write(block, 0, size / 2);
                zstd.gather().write(block); // gather starts afresh
                assertArrayEquals(frame, zstd.compressGathered(), "a block gathered in pieces, " + size + " bytes");
            }
        }
    }

    @Test
    void thePoolKeepsFewIdleInstancesAndNoHugeBuffers() {
        List<ZstdBlocks> lent = new ArrayList<>();
        for (int i = 0; i < ZstdBlocks.MAX_IDLE + 8; i++) {
            ZstdBlocks zstd = ZstdBlocks.borrow();
            zstd.compress(new byte[100], 0, 100); // makes its context
            lent.add(zstd);
        }
        lent.forEach(ZstdBlocks::close);
        lent.get(0).close(); // twice: nothing more
        // at most MAX_IDLE kept (another test class's writer may hold one meanwhile): the others' contexts were closed
        assertTrue(ZstdBlocks.idle() <= ZstdBlocks.MAX_IDLE && ZstdBlocks.idle() >= ZstdBlocks.MAX_IDLE - 1,
                ZstdBlocks.idle() + " idle");
        try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
            zstd.compress(new byte[ZstdBlocks.MAX_KEPT_BUFFER + 1], 0, ZstdBlocks.MAX_KEPT_BUFFER + 1);
            assertTrue(zstd.bufferBytes() > ZstdBlocks.MAX_KEPT_BUFFER);
            zstd.close();
            assertTrue(zstd.bufferBytes() < ZstdBlocks.MAX_KEPT_BUFFER, "a huge page's buffer is given up");
        }
    }

    @Test
    void aFrameOfAnotherLengthIsRefused() {
        try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
            byte[] frame = zstd.compress(new byte[100], 0, 100);
            assertThrows(IllegalStateException.class, () -> zstd.decompress(frame, 50));
            assertThrows(IllegalStateException.class, () -> zstd.decompress(frame, 200));
        }
    }
}
