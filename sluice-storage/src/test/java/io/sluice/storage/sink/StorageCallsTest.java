package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The storage calls of a roll, side by side: every call has ended when {@code each} returns, also after a close. */
class StorageCallsTest {

    /**
     * A lane inside {@code each} when the sink closes (the engine's drain gave up on it during a store outage), with a
     * call still queued behind one in the store: the queued call is never made, and {@code each} ends once the call
     * under way does, with a storage failure. It waited for ever on the queued call's future.
     */
    @Test
    void aCloseEndsABatchWhoseCallsWereStillQueued() throws Exception {
        StorageCalls calls = new StorageCalls(1);
        CountDownLatch inStore = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        List<StorageCalls.Call<String>> batch = List.of(() -> {
            inStore.countDown();
            try {
                answer.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "sealed";
        }, () -> "never");
        CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> {
            try {
                calls.each("seal", List.of("a", "b"), batch);
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        assertTrue(inStore.await(10, TimeUnit.SECONDS));
        calls.close();
        answer.countDown();

        Throwable failure = ended.get(10, TimeUnit.SECONDS);
        assertTrue(failure instanceof StorageFailure, String.valueOf(failure));
        StorageFailure storage = (StorageFailure) failure;
        assertEquals("b", storage.path);
        assertEquals("not made: the archive was closed first", storage.cause.getMessage());
    }

    /** A batch begun after the close: no call is made, and the batch fails as a storage failure, not with a crash. */
    @Test
    void aBatchAfterTheCloseFailsAsAStorageFailure() {
        StorageCalls calls = new StorageCalls(2);
        calls.close();
        StorageFailure failure = org.junit.jupiter.api.Assertions.assertThrows(StorageFailure.class,
                () -> calls.each("seal", List.of("a", "b"), List.of(() -> "a", () -> "b")));
        assertEquals("a", failure.path);
        assertEquals("not made: the archive was closed first", failure.cause.getMessage());
    }
}
