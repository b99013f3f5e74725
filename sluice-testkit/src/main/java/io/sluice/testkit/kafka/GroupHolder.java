package io.sluice.testkit.kafka;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A member of a consumer group that holds partitions and does nothing with them: it never commits and starts at the
 * end, so it reads nothing. Tests of several instances of one bounded run join it first, so that no instance can reach
 * the end (the holder's partitions never progress) until every instance owns partitions; then {@link #close} hands its
 * partitions to them. Without it the first instance to join could do everything alone, and the split a test is about
 * might not happen. It uses the engine's assignor (cooperative sticky) and a lowered session timeout, as the engines in
 * the tests do.
 *
 * <p>Threading: one thread, as the consumer inside; it takes part in rebalances only while it polls
 * ({@link #pollUntil}).
 */
public final class GroupHolder implements AutoCloseable {

    /** The holder's client ID, to tell it from the instances in a group's description. */
    public static final String CLIENT_ID = "sluice-test-holder";

    private final KafkaConsumer<byte[], byte[]> consumer;
    private boolean closed;

    public GroupHolder(Map<String, Object> client, String group, String topic) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, CLIENT_ID);
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6_000);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(Set.of(topic));
    }

    /** How many partitions it holds now. */
    public int held() {
        return consumer.assignment().size();
    }

    /**
     * Polls (taking part in the group's rebalances) until {@code done}.
     *
     * @throws AssertionError when {@code done} is still false after {@code timeout}
     */
    public void pollUntil(BooleanSupplier done, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout + ": " + what + "; the holder has "
                        + consumer.assignment());
            }
            consumer.poll(Duration.ofMillis(100));
        }
    }

    /** Leaves the group: its partitions go to the other members. Closing twice does nothing more. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            consumer.close();
        }
    }
}
