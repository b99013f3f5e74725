package io.sluice.core.lane;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The worker threads that run lanes. Lanes with work wait in one shared queue and every idle worker takes the next,
 * so work spreads over all workers however unevenly it arrives.
 *
 * <p>Threading: {@link #submit} from any thread; {@link #shutdown} from the engine's owner.
 */
public final class WorkerPool {

    private final LinkedBlockingQueue<Lane> ready = new LinkedBlockingQueue<>();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopped;

    public WorkerPool(String name, int threads) {
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(this::work, name + "-worker-" + i);
            t.setDaemon(true);
            workers.add(t);
        }
        workers.forEach(Thread::start);
    }

    void submit(Lane lane) {
        ready.offer(lane);
    }

    private void work() {
        long[] offsets = new long[Lane.TURN];
        while (!stopped) {
            Lane lane;
            try {
                lane = ready.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                if (stopped) {
                    return;
                }
                continue;
            }
            if (lane != null) {
                lane.run(offsets);
            }
        }
    }

    /** Stops the workers once their current record is done; waits up to {@code millis} for them. */
    public void shutdown(long millis) {
        stopped = true;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (Thread t : workers) {
            try {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        workers.stream().filter(Thread::isAlive).forEach(Thread::interrupt);
    }
}
