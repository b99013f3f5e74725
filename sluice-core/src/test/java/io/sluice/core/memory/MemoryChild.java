package io.sluice.core.memory;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Ordering;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The engine under a tight heap: {@code MemoryChild <bootstrap> <topic> <group> <budget-bytes> <seconds>}. A slow
 * handler leaves the backlog in Kafka; the engine must hold at most its budget. Prints
 * {@code MEMORY <max-queued-bytes> <processed> <paused-max>} and exits 0, or dies of OutOfMemoryError.
 */
public final class MemoryChild {

    private MemoryChild() {
    }

    public static void main(String[] args) throws Exception {
        long budget = Long.parseLong(args[3]);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(args[0])
                .topics(args[1])
                .groupId(args[2])
                .ordering(Ordering.KEY)
                .concurrency(32)
                .memoryBudgetBytes(budget)
                .drainTimeout(Duration.ofSeconds(5))
                .build();
        LongAdder processed = new LongAdder();
        long maxQueued = 0;
        int maxPaused = 0;
        try (Engine engine = Engine.start(config, new ByteArrayDeserializer(), new ByteArrayDeserializer(), record -> {
            Thread.sleep(2);
            processed.increment();
        })) {
            long end = System.nanoTime() + Long.parseLong(args[4]) * 1_000_000_000L;
            while (System.nanoTime() < end) {
                var stats = engine.stats();
                maxQueued = Math.max(maxQueued, stats.queuedBytes());
                maxPaused = Math.max(maxPaused, stats.pausedPartitions());
                Thread.sleep(2);
            }
        }
        System.out.println("MEMORY " + maxQueued + " " + processed.sum() + " " + maxPaused);
        System.out.flush();
    }
}
