package io.sluice.audit.crash;

import io.sluice.core.Engine;
import io.sluice.core.Health;
import io.sluice.storage.backend.TestStorage;
import io.sluice.storage.sink.ArchiveSink;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The archive of {@link ArchiveChild}, run in the test JVM: a restart after a child crashed, or a live instance beside
 * a zombie, needs no process of its own (a JVM start is most of a crash case's time); same sink and configuration.
 *
 * <p>Threading: the test thread; progress arrives from the engine's lanes, under this object's lock.
 */
final class InProcessArchive {

    private final Engine engine;
    private final ArchiveSink sink;
    private final int partitions;
    /** Progress lines seen ({@link ProgressSink}), guarded by this. */
    private final Set<String> seen = new HashSet<>();

    private InProcessArchive(String bootstrap, String topic, String group, TestStorage storage, String rolling,
            String instance, Map<Integer, Long> ends) throws Exception {
        this.partitions = ends.size();
        this.sink = ArchiveChild.sink(storage, rolling);
        this.engine = Engine.startSink(ArchiveChild.config(bootstrap, topic, group, instance),
                new ProgressSink(sink, ends, this::seen));
    }

    static InProcessArchive start(String bootstrap, String topic, String group, TestStorage storage, String rolling,
            String instance, Map<Integer, Long> ends) throws Exception {
        return new InProcessArchive(bootstrap, topic, group, storage, rolling, instance, ends);
    }

    /**
     * Waits until every partition has reported {@code event}: {@link ProgressSink#CAUGHT_UP} (its records below the
     * end offsets are written, or were committed before) or {@link ProgressSink#PUBLISHED}.
     */
    synchronized void awaitAll(String event, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (seen.stream().filter(l -> l.startsWith(event)).count() < partitions) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("waiting " + timeout + " for " + event.trim() + " of every partition, saw "
                        + seen + ": " + engine.health() + " " + engine.stats() + " "
                        + engine.failure().map(String::valueOf).orElse(""));
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    private synchronized void seen(String line) {
        if (seen.add(line)) {
            notifyAll();
        }
    }

    /** Closes as on shutdown (the last roll, commit and publish) and says how it ended. */
    String close() throws Exception {
        engine.close();
        sink.close();
        return engine.health() + (engine.health() == Health.STOPPED ? "" : ": " + engine.failure());
    }
}
