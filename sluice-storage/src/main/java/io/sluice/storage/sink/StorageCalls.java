package io.sluice.storage.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a roll's or a publication's storage calls, one per file, side by side: sealing a file is an fsync (local),
 * a PUT or the last part of an upload (S3), an hsync and close (HDFS), and publishing one is a rename or a completed
 * upload. Made one after the other, a partition with 30 open files waits for 30 round trips at every roll, with its
 * lane idle; side by side it waits about as long as for the slowest. Kafka Connect's storage sinks make them one
 * after the other on the task's thread.
 *
 * <p>Every call of a batch has ended when {@link #each} returns or throws, so the caller owns the files again.
 *
 * <p>Threading: safe for concurrent use; the sink's partitions share one pool of {@code threads}.
 */
final class StorageCalls implements AutoCloseable {

    /** The default number of storage calls in flight for the whole sink. */
    static final int DEFAULT_THREADS = 8;

    /** A storage call on one file. */
    interface Call<T> {
        T run() throws IOException;
    }

    private final ExecutorService pool;

    StorageCalls(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("storage calls in flight must be at least 1, not " + threads);
        }
        AtomicInteger n = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, "sluice-storage-" + n.incrementAndGet());
            t.setDaemon(true); // a call stuck in a dead store must not keep the JVM alive
            return t;
        };
        this.pool = Executors.newFixedThreadPool(threads, factory);
    }

    /**
     * Runs {@code call} for each of {@code paths} in parallel and returns their results in order. A single call runs
     * on the caller's thread. When calls fail, the first failure in order is thrown, after every call has ended.
     *
     * @param action what the calls do, for the failure: "seal", "publish"
     */
    <T> List<T> each(String action, List<String> paths, List<Call<T>> calls) throws StorageFailure {
        if (calls.size() == 1) {
            try {
                // not List.of: a publication's calls return null (Void), which List.of refuses
                return Collections.singletonList(calls.get(0).run());
            } catch (IOException e) {
                throw new StorageFailure(action, paths.get(0), e);
            }
        }
        List<Future<T>> futures = new ArrayList<>(calls.size());
        for (Call<T> call : calls) {
            try {
                futures.add(pool.submit(call::run));
            } catch (RejectedExecutionException e) {
                // the sink closed mid-batch: the calls already under way are still waited for below, as promised
                futures.add(CompletableFuture.failedFuture(new IOException("not made: the archive was closed first")));
            }
        }
        List<T> results = new ArrayList<>(calls.size());
        Throwable first = null;
        String firstPath = null;
        boolean interrupted = false;
        for (int i = 0; i < futures.size(); i++) {
            T result = null;
            while (true) {
                try {
                    result = futures.get(i).get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the files stay in use until their calls end: wait on
                } catch (CancellationException e) {
                    // never made: the sink closed under a lane the drain gave up on (see close)
                    if (first == null) {
                        first = new IOException("not made: the archive was closed first");
                        firstPath = paths.get(i);
                    }
                    break;
                } catch (ExecutionException e) {
                    if (first == null) {
                        first = e.getCause();
                        firstPath = paths.get(i);
                    }
                    break;
                }
            }
            results.add(result);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (first instanceof IOException io) {
            throw new StorageFailure(action, firstPath, io);
        } else if (first instanceof RuntimeException re) {
            throw re; // a bug or a crash point, not a storage failure: the engine reports it as it is
        } else if (first instanceof Error error) {
            throw error;
        }
        return results;
    }

    /**
     * Stops the pool. Calls queued and never started are cancelled, so that a lane still in {@link #each} (one the
     * engine's drain gave up on during a store outage) ends instead of waiting for ever: it did, and each such outage
     * of a long-running {@code sluice run} kept a thread and its partition's files (a review).
     */
    @Override
    public void close() {
        for (Runnable never : pool.shutdownNow()) {
            if (never instanceof Future<?> call) {
                call.cancel(false);
            }
        }
    }
}
