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
 * <p>Workers start as lanes need them, up to the pool's size: a lane that arrives while no worker waits for one starts
 * a worker, and so does a worker that takes a lane while others still wait and no worker is idle. A sink runs one
 * lane per partition, so an archive or a mirror of 4 partitions starts about 4 workers, not the 64 of the default
 * concurrency (which took 60 ms of the mirror's start, and woke every 100 ms each while idle). No lane is left waiting
 * while the pool is below its size: whoever makes it wait, a submit or a worker taking another lane, sees no idle
 * worker after the lane was queued, and starts one.
 *
 * <p>A worker stuck in a handler past the processing timeout is left behind: the watchdog fails the attempt and gives
 * the lane to the pool again, which starts a replacement when no worker is idle; the stuck worker no longer counts
 * towards the size. It retires whenever the handler returns.
 *
 * <p>Threading: {@link #submit} from any thread. Each worker publishes the lane it runs in a volatile field that
 * only the watchdog reads. The counts of workers that work and that wait are atomic. {@link #shutdown} from the
 * engine's owner.
 */
public final class WorkerPool {

    private final String name;
    private final int size;
    private final long timeoutNanos;
    private final LinkedBlockingQueue<Lane> ready = new LinkedBlockingQueue<>();
    private final Set<Worker> workers = ConcurrentHashMap.newKeySet();
    private final Set<Lane> suspended = ConcurrentHashMap.newKeySet();
    private final AtomicInteger sequence = new AtomicInteger();
    /** Workers started and not retiring: at most {@link #size}. */
    private final AtomicInteger working = new AtomicInteger();
    /** Workers waiting for a lane in the queue. */
    private final AtomicInteger idle = new AtomicInteger();
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
        if (threads < 1) {
            throw new IllegalArgumentException("a pool needs at least one worker, not " + threads);
        }
        this.name = name;
        this.size = threads;
        this.timeoutNanos = timeoutNanos;
        this.virtual = virtual;
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
        if (idle.get() == 0) {
            grow(); // after the offer: a worker that went idle since would find the lane
        }
    }

    /** Starts a worker unless the pool is at its size or stopped. */
    private void grow() {
        int n;
        do {
            n = working.get();
            if (n >= size || stopped) {
                return;
            }
        } while (!working.compareAndSet(n, n + 1));
        startWorker();
    }

    /** Whether a lane waits for a worker: then a worker's lane gives its thread up after a turn. */
    boolean othersWaiting() {
        return !ready.isEmpty() || stopped;
    }

    /** How often a lane was handed to the pool's queue: for the tests of the turn rule. */
    long handOffs() {
        return handOffs.sum();
    }

    /** The lanes whose asynchronous attempt runs on without a worker: for the tests. */
    int suspendedLanes() {
        return suspended.size();
    }

    void suspended(Lane lane) {
        suspended.add(lane);
    }

    void resumed(Lane lane) {
        suspended.remove(lane);
    }

    /** A lane's attempt ran past the timeout and was ended: counted before the lane goes on. */
    void timedOut() {
        timeouts.increment();
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

    /** Attempts that overran the processing timeout since start. */
    public long timeouts() {
        return timeouts.sum();
    }

    /** Worker threads alive now, including stuck ones not yet retired. */
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
                    // it no longer counts: the lane it held was given back, and its submit starts a replacement
                    // unless a worker is idle (the stamp's hand-over orders this before the lane runs again)
                    w.retiring = true;
                    working.decrementAndGet();
                    if (idle.get() == 0 && !ready.isEmpty()) {
                        grow();
                    }
                }
            }
            for (Lane lane : suspended) {
                lane.expireIfOverdue(now, null);
            }
        }
    }

    /**
     * Stops the workers once their current record is done; waits up to {@code millis} for them, an interrupt of the
     * caller included (it is kept for the caller): a shutdown that returned at the interrupt left workers running
     * after the engine said it stopped. A worker started meanwhile (a submit that saw the pool still running) is
     * waited for too.
     */
    public void shutdown(long millis) {
        stopped = true;
        watchdog.interrupt();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        boolean interrupted = false;
        for (Worker w = nextToAwait(); w != null && deadline - System.nanoTime() > 0; w = nextToAwait()) {
            if (!w.thread.isAlive()) {
                Thread.yield(); // added to the set but not started yet: it starts within moments and sees the stop
                continue;
            }
            try {
                w.thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        workers.forEach(w -> w.thread.interrupt());
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A worker still alive that a shutdown waits for; not one stuck in a handler that ignores interrupts (waiting for
     * it would hang the shutdown).
     */
    private Worker nextToAwait() {
        for (Worker w : workers) {
            if (!w.retiring && w.thread.getState() != Thread.State.TERMINATED) {
                return w;
            }
        }
        return null;
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
                    idle.incrementAndGet();
                    try {
                        lane = ready.poll(100, TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        continue; // a stale interrupt from the watchdog, or shutdown: the loop condition decides
                    } finally {
                        idle.decrementAndGet();
                    }
                    if (lane == null) {
                        continue;
                    }
                    if (idle.get() == 0 && !ready.isEmpty()) {
                        grow(); // another lane waits, and a submit that saw this worker idle started none for it
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
                if (!retiring) {
                    working.decrementAndGet(); // an error out of a lane: the next submit may start another
                }
            }
        }
    }
}
