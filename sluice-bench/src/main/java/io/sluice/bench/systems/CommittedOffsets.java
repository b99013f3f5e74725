package io.sluice.bench.systems;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * When an archiving system is done: its consumer group has committed the end of every partition, which both systems
 * do only for records in finished files. Read from the broker, the same way for every system. Created before the run,
 * so the admin client's start-up is not timed.
 *
 * <p>Threading: one thread.
 */
final class CommittedOffsets implements AutoCloseable {

    private final Admin admin;
    private final Map<TopicPartition, Long> ends = new HashMap<>();

    CommittedOffsets(String bootstrap, String topic, int partitions) throws ExecutionException, InterruptedException {
        this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        admin.listOffsets(latest).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
    }

    /**
     * Waits until {@code group} has committed every partition's end and {@code published} holds for the ends, and
     * returns that moment ({@link System#nanoTime()}).
     *
     * @param failure why the system stopped, if it did: ends the wait with an error
     */
    long awaitEnd(String group, Predicate<Map<TopicPartition, Long>> published, Duration timeout,
            Supplier<Optional<String>> failure) throws ExecutionException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
            if (reachedEnds(committed) && published.test(ends)) {
                return System.nanoTime();
            }
            Optional<String> failed = failure.get();
            if (failed.isPresent()) {
                throw new IllegalStateException("the system failed before committing its output: " + failed.get());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(group + " committed " + committed + " but not the ends " + ends
                        + " within " + timeout);
            }
            Thread.sleep(10);
        }
    }

    private boolean reachedEnds(Map<TopicPartition, OffsetAndMetadata> committed) {
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(end.getKey());
            if (end.getValue() > 0 && (c == null || c.offset() < end.getValue())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
