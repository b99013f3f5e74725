package io.sluice.merge.run;

import io.sluice.merge.merging.MergeClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * A thread that merges some of the output partitions, one turn each in a round, and sleeps when none can move until
 * a reader wakes it (a batch arrived for one of its partitions) or a commit or a wait falls due. Partitions come and
 * go by messages ({@link #start}, {@link #stop}) that the thread handles between rounds, so a partition's merge and
 * transaction are only ever touched by this thread.
 *
 * <p>A failure of any partition (a refused commit, a late record under late: stop) is handed to {@code onFailure}
 * and ends the thread: the merge stops as a whole, and the next start's claims read what is committed.
 *
 * <p>Threading: {@link #start}, {@link #stop}, {@link #wake} and {@link #close} from any thread; the rest on the
 * worker's own thread.
 */
final class MergeWorker implements Runnable {

    private final Queue<Runnable> messages = new ConcurrentLinkedQueue<>();
    private final List<PartitionTask> tasks = new ArrayList<>();
    private final Consumer<Exception> onFailure;
    private volatile Thread thread;
    private volatile boolean running = true;
    private volatile boolean ended;

    MergeWorker(Consumer<Exception> onFailure) {
        this.onFailure = onFailure;
    }

    void start(PartitionTask task) {
        send(() -> tasks.add(task));
    }

    /**
     * Takes {@code output} off this worker; with {@code commit}, what it merged is committed first (a revoke),
     * without it nothing more is sent (a loss: another instance may own it already). Completes when done.
     */
    CompletableFuture<Void> stop(TopicPartition output, boolean commit) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        send(() -> {
            try {
                for (PartitionTask task : tasks) {
                    if (task.output.equals(output) && commit) {
                        task.finish(MergeClock.now());
                    }
                }
                done.complete(null);
            } catch (Exception e) {
                // the partition is going anyway: its failed last commit is its own loss, not the merge's end
                done.completeExceptionally(e);
            } finally {
                tasks.removeIf(t -> t.output.equals(output));
            }
        });
        return done;
    }

    /** Whether every partition here is finished (see {@link PartitionTask#finished}); for a bounded run. */
    CompletableFuture<Boolean> finished() {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        send(() -> answer.complete(!ended && tasks.stream().allMatch(t -> t.finished(MergeClock.now()))));
        return answer;
    }

    /**
     * Queues a message for the worker's thread; once that thread has ended (a failure, or closed), the message runs
     * here at once, against no partitions, so that nobody waits for an answer that would never come.
     */
    private void send(Runnable message) {
        messages.add(message);
        if (ended) {
            drainEnded();
        } else {
            wake();
        }
    }

    private synchronized void drainEnded() {
        for (Runnable message; (message = messages.poll()) != null; ) {
            message.run();
        }
    }

    void wake() {
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    void close() {
        running = false;
        wake();
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            while (running) {
                for (Runnable message; (message = messages.poll()) != null; ) {
                    message.run();
                }
                boolean moved = false;
                long wakeAt = Long.MAX_VALUE;
                for (PartitionTask task : tasks) {
                    // each turn reads the clock: one time for the whole round made a turn's records wait in their
                    // open transaction through every other partition's turn, whatever the commit interval (a review)
                    moved |= task.turn(MergeClock.now());
                    wakeAt = Math.min(wakeAt, task.wakeAt());
                }
                if (!moved && messages.isEmpty()) {
                    // nothing to wake for (Long.MAX_VALUE) is 200 ms; the subtraction alone would overflow when the
                    // clock reads below zero
                    long sleep = wakeAt == Long.MAX_VALUE ? 200
                            : Math.max(1, Math.min(wakeAt - MergeClock.now(), 200));
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(sleep));
                }
            }
        } catch (Exception e) {
            running = false;
            onFailure.accept(e);
        } finally {
            tasks.clear(); // their transactions stay open: the next claim of their partitions aborts them
            ended = true;
            drainEnded();
        }
    }
}
