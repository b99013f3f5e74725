package io.sluice.local.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Waits until every partition of a topic just created has a leader that serves requests. The create call returns when
 * the controller has the topic; a produce request that reaches a broker still becoming leader fails with
 * NOT_LEADER_OR_FOLLOWER, and an idempotent producer whose later batches got in meanwhile then meets
 * OUT_OF_ORDER_SEQUENCE_NUMBER on every retry until its delivery timeout (a benchmark's copier, in CI). ListOffsets is
 * answered by the leader itself, so its success means the partitions are ready.
 *
 * <p>Threading: stateless.
 */
public final class ServingLeaders {

    private ServingLeaders() {
    }

    public static void await(Admin admin, String topic, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        while (true) {
            try {
                var partitions = admin.describeTopics(java.util.List.of(topic)).allTopicNames()
                        .get(30, TimeUnit.SECONDS).get(topic).partitions();
                Map<TopicPartition, OffsetSpec> specs = new HashMap<>();
                partitions.forEach(p -> specs.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest()));
                admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the partitions of " + topic + " have no serving leader after "
                            + within.toSeconds() + " s", e);
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ie);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
