package io.sluice.merge.owners;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;

/**
 * The owners group member's offset commits, for at-least-once merges that keep their state there. The consumer
 * belongs to the group's thread, so a worker's commit is queued and the thread is woken: it serves the queue after
 * each poll ({@link #serveQueued}; a commit the coordinator refuses mid-rebalance waits for the next poll), and while
 * it waits in a callback for a worker that commits as it hands a partition over ({@link #await}). Every consumer call
 * here is repeated when a wakeup meant for the loop interrupts it.
 *
 * <p>Threading: {@link #commit} from any thread; the rest on the group's thread ({@link #bind} names it).
 */
final class MemberCommits {

    private static final Duration COMMIT_TIMEOUT = Duration.ofSeconds(30);

    /** A worker's commit, waiting for the group's thread. */
    private record Commit(Map<TopicPartition, OffsetAndMetadata> offsets, CompletableFuture<Void> done) {
    }

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String group;
    private final BlockingQueue<Commit> queue = new LinkedBlockingQueue<>();
    private volatile Thread thread;
    private volatile boolean ended;

    MemberCommits(KafkaConsumer<byte[], byte[]> consumer, String group) {
        this.consumer = consumer;
        this.group = group;
    }

    /** The calling thread is the group's. */
    void bind() {
        thread = Thread.currentThread();
    }

    Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
        onGroupThread();
        while (true) {
            try {
                Map<TopicPartition, OffsetAndMetadata> found = new HashMap<>(consumer.committed(partitions, timeout));
                found.values().removeIf(Objects::isNull);
                return found;
            } catch (WakeupException e) {
                // a commit or a stop asked for the thread's attention; the answer is still needed
            }
        }
    }

    void commit(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) throws Exception {
        if (Thread.currentThread() == thread) {
            commitHere(offsets, timeout);
            return;
        }
        Commit commit = new Commit(offsets, new CompletableFuture<>());
        queue.add(commit);
        if (ended) {
            failPending(); // nobody is left to serve it
        } else {
            consumer.wakeup();
        }
        try {
            commit.done().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } catch (TimeoutException e) {
            throw new TimeoutException("the commit of " + offsets.keySet() + " in group '" + group + "' had no answer "
                    + "within " + timeout.toSeconds() + " s");
        }
    }

    <T> T await(CompletableFuture<T> done, Duration timeout) throws Exception {
        onGroupThread();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.isDone()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new TimeoutException("no answer within " + timeout.toSeconds() + " s");
            }
            Commit commit = queue.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)), TimeUnit.NANOSECONDS);
            if (commit != null) {
                try {
                    commitHere(commit.offsets(), COMMIT_TIMEOUT);
                    commit.done().complete(null);
                } catch (RuntimeException e) {
                    commit.done().completeExceptionally(e);
                }
            }
        }
        try {
            return done.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    /** Serves the commits queued so far; one the group cannot take mid-rebalance waits for the next poll. */
    void serveQueued() {
        for (Commit commit; (commit = queue.peek()) != null; ) {
            try {
                commitHere(commit.offsets(), COMMIT_TIMEOUT);
            } catch (RebalanceInProgressException e) {
                return; // the next poll completes the rebalance; the commit stays first in the queue
            } catch (RuntimeException e) {
                queue.remove(commit);
                commit.done().completeExceptionally(e);
                continue;
            }
            queue.remove(commit);
            commit.done().complete(null);
        }
    }

    /** The group's thread has closed the consumer: what is queued, and what comes, fails at once. */
    void end() {
        ended = true;
        failPending();
    }

    private void commitHere(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
        while (true) {
            try {
                consumer.commitSync(offsets, timeout);
                return;
            } catch (WakeupException e) {
                // another commit or a stop woke the consumer: this commit is still to be made (committing the same
                // offsets twice is harmless)
            }
        }
    }

    private void failPending() {
        for (Commit commit; (commit = queue.poll()) != null; ) {
            commit.done().completeExceptionally(new IllegalStateException("the owners group has stopped: "
                    + commit.offsets().keySet() + " not committed"));
        }
    }

    private void onGroupThread() {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("the owners group's consumer is used from " + Thread.currentThread()
                    .getName() + ", not its own thread");
        }
    }
}
