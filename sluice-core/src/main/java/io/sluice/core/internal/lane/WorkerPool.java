package io.sluice.core.internal.lane;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The worker threads that run lanes, and the watchdog that times out attempts. Lanes with work wait in one shared
 * queue and every idle worker takes the next, so work spreads over all workers however unevenly it arrives.
 *
 * <p>A worker stuck in a handler past the processing timeout is left behind: the watchdog fails the attempt, gives
 * the lane to the pool again and starts a replacement worker, so the pool keeps its size in working threads. The
 * stuck thread retires whenever the handler returns.
 *
 * <p>Threading: {@link #submit} from any thread. Each worker publishes the lane it runs in a volatile field that
 * only the watchdog reads. {@link #shutdown} from the engine's owner.
 */
public final class WorkerPool {

    private final String name;
    private final long timeoutNanos;
    private final LinkedBlockingQueue<Lane> ready = new LinkedBlockingQueue<>();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final Set<Lane> suspended = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sequence = new AtomicInteger();
    private final boolean virtual;
    private final Thread watchdog;
    /** Attempts that overran the processing timeout. */
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder handOffs = new LongAdder();
    private volatile boolean stopped;

    public WorkerPool(String name, int threads, long timeoutNanos) {
        this(name, threads, timeoutNanos, false);
    }

    /** @param virtual workers on virtual threads (JDK 21+ API; the engine allows it on JDK 24+ only) */
    public WorkerPool(String name, int threads, long timeoutNanos, boolean virtual) {
        this.name = name;
        this.timeoutNanos = timeoutNanos;
        this.virtual = virtual;
        for (int i = 0; i < threads; i++) {
            startWorker();
        }
        this.watchdog = new Thread(this::watch, name + "-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    void submit(Lane lane) {
        handOffs.increment();
        ready.offer(lane);
    }

    /** Whether a lane waits for a worker: then a worker's lane gives its thread up after a turn. */
    boolean othersWaiting() {
        return !ready.isEmpty() || stopped;
    }

    /** How often a lane was handed to the pool's queue: for the tests of the turn rule. */
    long handOffs() {
        return handOffs.sum();
    }

    void suspended(Lane lane) {
        suspended.add(lane);
    }

    void resumed(Lane lane) {
        suspended.remove(lane);
    }

    /** Compiled for release 17, so virtual threads (a JDK 21 API) are reached by reflection. */
    private Thread newThread(Runnable body, String threadName) {
        if (!virtual) {
            Thread t = new Thread(body, threadName);
            t.setDaemon(true);
            return t;
        }
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> type = Class.forName("java.lang.Thread$Builder");
            builder = type.getMethod("name", String.class).invoke(builder, threadName);
            return (Thread) type.getMethod("unstarted", Runnable.class).invoke(builder, body);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads are not available on this JDK", e);
        }
    }

    /** Worker threads alive now, including stuck ones not yet retired. */
    /** Attempts that overran the processing timeout since start. */
    public long timeouts() {
        return timeouts.sum();
    }

    public int threads() {
        return workers.size();
    }

    private void startWorker() {
        Worker worker = new Worker();
        workers.add(worker);
        worker.thread.start();
    }

    private void watch() {
        long period = Math.max(1, Math.min(TimeUnit.MILLISECONDS.toNanos(100), timeoutNanos / 4));
        while (!stopped) {
            try {
                TimeUnit.NANOSECONDS.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Worker w : workers) {
                Lane lane = w.running;
                if (lane != null && !w.retiring && lane.expireIfOverdue(now, w.thread)) {
                    timeouts.increment();
                    w.retiring = true;
                    startWorker();
                }
            }
            for (Lane lane : suspended) {
                if (lane.expireIfOverdue(now, null)) {
                    timeouts.increment();
                }
            }
        }
    }

    /** Stops the workers once their current record is done; waits up to {@code millis} for them. */
    public void shutdown(long millis) {
        stopped = true;
        watchdog.interrupt();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Worker w : workers) {
            if (w.retiring) {
                continue; // stuck in a handler that ignores interrupts: waiting for it would hang the shutdown
            }
            try {
                w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        workers.forEach(w -> w.thread.interrupt());
    }

    private final class Worker implements Runnable {
        final Thread thread = newThread(this, name + "-worker-" + sequence.getAndIncrement());
        volatile Lane running;
        volatile boolean retiring;

        @Override
        public void run() {
            try {
                while (!stopped && !retiring) {
                    Lane lane;
                    try {
                        lane = ready.poll(100, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        continue; // a stale interrupt from the watchdog, or shutdown: the loop condition decides
                    }
                    if (lane == null) {
                        continue;
                    }
                    running = lane;
                    boolean kept = lane.run();
                    running = null;
                    if (!kept) {
                        return;
                    }
                    Thread.interrupted(); // an interrupt meant for a finished attempt must not hit the next one
                }
            } finally {
                workers.remove(this);
            }
        }
    }
}
