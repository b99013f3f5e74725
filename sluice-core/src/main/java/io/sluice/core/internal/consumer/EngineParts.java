package io.sluice.core.internal.consumer;

import io.sluice.core.commit.CommitPoint;
import io.sluice.core.internal.budget.MemoryBudget;
import io.sluice.core.internal.lane.Invoker;
import io.sluice.core.internal.lane.LaneRouter;
import io.sluice.core.internal.lane.WorkerPool;
import io.sluice.core.internal.metrics.EngineMetrics;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * What the consumer loop works with, made beforehand by the engine: the clients, the worker pool and what runs on it,
 * the budget, the commit point, and the narrow settings of each role.
 *
 * @param inFlight a limit on records in flight for asynchronous handlers, or null
 * @param readRate null without a read-rate limit
 * @param topicIds where the consumer loop keeps the consumed topics' IDs, which dead letters name
 */
public record EngineParts(Consumer<byte[], byte[]> consumer, Admin admin, WorkerPool pool, Invoker invoker,
        Semaphore inFlight, LaneRouter router, MemoryBudget budget, CommitPoint commitPoint, EngineFailure failure,
        EngineMetrics metrics, ReadRateLimit readRate, StartSettings start, CommitSettings commitSettings,
        Duration stuckThreshold, KnownTopicIds topicIds) {
}
