package io.sluice.storage.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Compression off the writer's thread: same bytes out, failures reported, nothing written after a discard. */
class CompressorsTest {

    private static final Compressors POOL = Compressors.offloaded(2);
    private static final ExecutorService POOL_THREADS = Executors.newFixedThreadPool(2);

    @AfterAll
    static void stopPools() {
        POOL.close();
        POOL_THREADS.shutdownNow();
    }

    @ParameterizedTest
    @EnumSource(Codec.class)
    void rowsWrittenInEveryShapeComeBackInOrder(Codec codec) throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        Random random = new Random(42);
        try (CompressionStream out = POOL.open(codec, file)) {
            for (int row = 0; row < 20_000; row++) {
                // single bytes, short rows and rows longer than a chunk, so chunks fill mid-row and rows span chunks
                byte[] bytes = ("{\"row\":" + row + ",\"text\":\"" + "log ".repeat(random.nextInt(row % 500 == 0
                        ? 40_000 : 60)) + "\"}").getBytes(StandardCharsets.UTF_8);
                out.write(bytes);
                out.write('\n');
                expected.write(bytes);
                expected.write('\n');
            }
        }
        try (InputStream in = codec.decompress(new ByteArrayInputStream(file.toByteArray()))) {
            assertArrayEquals(expected.toByteArray(), in.readAllBytes());
        }
    }

    @Test
    void aFileWithLittleInItHoldsLittleAndOneInFullFlowTwoChunks() throws IOException {
        try (CompressionStream out = POOL.open(Codec.ZSTD, OutputStream.nullOutputStream())) {
            assertEquals(0, out.heapBytes(), "no codec before the first chunk is handed off");
            out.write(new byte[100]);
            assertEquals(OffloadedCompression.FIRST_CHUNK, out.heapBytes());
            out.write(new byte[3 * OffloadedCompression.CHUNK]);
            assertEquals(Codec.ZSTD.heapBuffer() + 2L * OffloadedCompression.CHUNK, out.heapBytes());
        }
    }

    /**
     * A file that stays under a chunk (a late hour's, issue 17) opens its codec only at its seal, so it holds its rows
     * and no codec context (zstd: about 1 MiB of native memory) while it is open; one given up opens none. Its bytes
     * are a whole frame all the same.
     */
    @Test
    void theCodecIsOpenedAtTheFirstHandOffOrAtTheSealAndNeverForAFileGivenUp() throws IOException {
        AtomicInteger opened = new AtomicInteger();
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DetachableStream target = new DetachableStream(file);
        CompressionStream small = new OffloadedCompression(() -> {
            opened.incrementAndGet();
            return Codec.ZSTD.compress(target);
        }, Codec.ZSTD.heapBuffer(), POOL_THREADS, target);
        byte[] rows = "a late row\n".repeat(500).getBytes(StandardCharsets.UTF_8); // under a chunk
        small.write(rows);
        assertEquals(0, opened.get(), "nothing handed off, nothing opened");
        assertEquals(0, file.size(), "nothing written yet");
        small.close();
        assertEquals(1, opened.get(), "opened by the seal");
        try (InputStream in = Codec.ZSTD.decompress(new ByteArrayInputStream(file.toByteArray()))) {
            assertArrayEquals(rows, in.readAllBytes());
        }

        CompressionStream givenUp = new OffloadedCompression(() -> {
            opened.incrementAndGet();
            return Codec.ZSTD.compress(new DetachableStream(OutputStream.nullOutputStream()));
        }, Codec.ZSTD.heapBuffer(), POOL_THREADS, new DetachableStream(OutputStream.nullOutputStream()));
        givenUp.write(rows);
        givenUp.discard();
        assertEquals(1, opened.get(), "a file given up before its first chunk opened no codec");

        CompressionStream large = new OffloadedCompression(() -> {
            opened.incrementAndGet();
            return Codec.ZSTD.compress(new DetachableStream(OutputStream.nullOutputStream()));
        }, Codec.ZSTD.heapBuffer(), POOL_THREADS, new DetachableStream(OutputStream.nullOutputStream()));
        large.write(new byte[OffloadedCompression.CHUNK + 1]);
        assertEquals(2, opened.get(), "opened by the first hand-off");
        large.close();
        assertEquals(2, opened.get(), "once");
    }

    @Test
    void theFilesFailureIsReportedByTheWriterAndByEveryCallAfter() {
        OutputStream full = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("No space left on device");
            }
        };
        CompressionStream out = new OffloadedCompression(full, 0, POOL_THREADS);
        byte[] rows = "a row that fills chunks\n".repeat(10_000).getBytes(StandardCharsets.UTF_8);
        IOException first = assertThrows(IOException.class, () -> {
            for (int i = 0; i < 10; i++) {
                out.write(rows);
            }
            out.close();
        });
        assertTrue(first.getMessage().contains("No space left on device"), first.getMessage());
        IOException again = assertThrows(IOException.class, () -> {
            out.write(rows);
            out.write(rows);
            out.flush();
        });
        assertTrue(again.getMessage().contains("No space left on device"), again.getMessage());
        out.discard();
    }

    @Test
    void nothingReachesTheFileOnceDiscardReturns() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch chunkArrived = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean();
        AtomicBoolean discarded = new AtomicBoolean();
        AtomicInteger writesAfterDiscard = new AtomicInteger();
        OutputStream slow = new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                if (discarded.get()) {
                    writesAfterDiscard.incrementAndGet();
                }
                writing.set(true);
                chunkArrived.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                writing.set(false);
            }
        };
        CompressionStream out = new OffloadedCompression(slow, 0, POOL_THREADS);
        out.write(new byte[OffloadedCompression.CHUNK]);
        out.write(1); // no room left: the full chunk is handed off here
        chunkArrived.await();
        AtomicBoolean writeInProgressAfterDiscard = new AtomicBoolean(true);
        Thread discarding = new Thread(() -> {
            out.discard();
            writeInProgressAfterDiscard.set(writing.get());
            discarded.set(true);
        });
        discarding.start();
        release.countDown(); // if discard did not wait for the chunk, it has most likely returned by now
        discarding.join();
        assertFalse(writeInProgressAfterDiscard.get(), "discard returned while the chunk was being written");
        assertEquals(0, writesAfterDiscard.get(), "the byte after the chunk must never reach the file");
    }

    /**
     * A pool closed with a chunk queued (its thread busy with another file's chunk): the queued chunk ends unwritten,
     * so that its file's writer, waiting for it at the seal, fails in words instead of waiting for ever; the engine's
     * drain had given up on that lane, and the sink closed under it (a review).
     */
    @Test
    void aSealWaitingForAChunkQueuedWhenThePoolClosesFailsInsteadOfWaiting() throws Exception {
        ExecutorService thread = Executors.newFixedThreadPool(1);
        Compressors pool = Compressors.on(thread);
        CountDownLatch busy = new CountDownLatch(1);
        thread.submit(() -> {
            busy.countDown();
            new CountDownLatch(1).await(); // another file's chunk, stuck in a dead store's write
            return null;
        });
        busy.await();
        CompressionStream queued = pool.open(Codec.ZSTD, new ByteArrayOutputStream());
        queued.write(new byte[OffloadedCompression.CHUNK]); // the first chunk, grown to its full size
        queued.write(1); // no room: the chunk is handed off, and queues behind the busy thread

        pool.close();
        IOException failed = assertThrows(IOException.class, queued::close, "the seal waits for the queued chunk");
        assertEquals("not compressed: the compressing threads were stopped (the archive closed)", failed.getMessage());
    }
}
