package io.sluice.storage.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.luben.zstd.ZstdInputStream;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ZstdBlocksTest {

    @Test
    void blocksOfEverySizeComeBackAndAreFramesAStreamingReaderReads() throws Exception {
        ZstdBlocks zstd = ZstdBlocks.ofThisThread();
        Random random = new Random(17);
        // from large to small: the scratch buffer, grown for the first, must not leak its old bytes into the others
        for (int size : new int[] {300_000, 65_536, 1_000, 1, 0}) {
            byte[] block = new byte[size];
            for (int i = 0; i < size; i++) {
                block[i] = (byte) (i % 7 == 0 ? random.nextInt() : 'a' + i % 13);
            }
            byte[] padded = new byte[size + 10];
            System.arraycopy(block, 0, padded, 5, size);
            zstd.compress(padded, 5, size);
            byte[] frame = zstd.copyOfFrame();
            assertArrayEquals(block, zstd.decompress(frame, size), "one call back, " + size + " bytes");
            try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame))) {
                assertArrayEquals(block, in.readAllBytes(), "a streaming reader, " + size + " bytes");
            }
        }
    }

    @Test
    void eachThreadHasItsOwnContextsAndScratch() throws Exception {
        ZstdBlocks mine = ZstdBlocks.ofThisThread();
        assertSame(mine, ZstdBlocks.ofThisThread());
        assertNotSame(mine, CompletableFuture.supplyAsync(ZstdBlocks::ofThisThread).get());
        mine.compress("held".getBytes(StandardCharsets.UTF_8), 0, 4);
        byte[] frame = mine.copyOfFrame();
        CompletableFuture.runAsync(() -> ZstdBlocks.ofThisThread().compress(new byte[5_000], 0, 5_000)).get();
        assertArrayEquals(frame, Arrays.copyOf(mine.scratch(), mine.scratchLength()), "another thread's call leaves it");
    }

    @Test
    void aFrameOfAnotherLengthIsRefused() {
        ZstdBlocks zstd = ZstdBlocks.ofThisThread();
        zstd.compress(new byte[100], 0, 100);
        byte[] frame = zstd.copyOfFrame();
        assertThrows(RuntimeException.class, () -> zstd.decompress(frame, 50));
        assertThrows(IllegalStateException.class, () -> zstd.decompress(frame, 200));
    }
}
