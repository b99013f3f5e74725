package io.sluice.bench.systems;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The most heap a run kept: the heap in use right after each garbage collection (what was live, plus what the
 * collector chose to leave), the largest seen. Garbage between collections is left out: it says nothing about what a
 * system holds on to, which is what runs out of memory with many open files.
 *
 * <p>Threading: the JVM calls the listener on its notification thread; {@link #peakBytes()} may be called from any.
 */
final class HeapPeak {

    private final AtomicLong peak = new AtomicLong();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());

    private HeapPeak() {
    }

    /** Starts watching every collector of this JVM. */
    static HeapPeak watch() {
        HeapPeak heap = new HeapPeak();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc.getName().contains("Concurrent")) {
                // G1's Remark and Cleanup pauses (reported from JDK 20) move no young object: see CommandArchiveSystem
                continue;
            }
            ((NotificationEmitter) gc).addNotificationListener((notification, handback) -> {
                if (notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                    heap.collected(GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()));
                }
            }, null, null);
        }
        return heap;
    }

    private void collected(GarbageCollectionNotificationInfo info) {
        long used = 0;
        for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        peak.accumulateAndGet(used, Math::max);
    }

    /** The peak after a collection; the heap in use now when no collection ran (a short run). */
    long peakBytes() {
        long afterGc = peak.get();
        if (afterGc > 0) {
            return afterGc;
        }
        MemoryUsage now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return now.getUsed();
    }
}
