package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A failed lane call stops the engine with the sink's words, not the wrapping exceptions' class names. */
class LaneCallsTest {

    @Test
    void aFailedCallStopsTheEngineInTheSinksWords() {
        List<Throwable> failures = new ArrayList<>();
        LaneCalls calls = new LaneCalls(Duration.ofSeconds(5), failures::add);
        PartitionState p = TestPartitions.state(new TopicPartition("orders", 1), 0, new ConcurrentLinkedQueue<>());
        CompletableFuture<Object> failed = new CompletableFuture<>();
        failed.completeExceptionally(new IllegalStateException("checkpoint and commit of orders-1: the producer was "
                + "fenced by another instance"));

        assertNull(calls.await(p, failed));
        // it read "the sink failed on orders-1: java.lang.IllegalStateException: checkpoint and commit of ..."
        assertEquals("the sink failed on orders-1: checkpoint and commit of orders-1: the producer was fenced by "
                + "another instance", failures.get(0).getMessage());
    }
}
