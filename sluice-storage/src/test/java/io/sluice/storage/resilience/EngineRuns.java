package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import java.time.Duration;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/** Engines for in-process archive tests: a config with quick group timeouts, and a run until N records are written. */
final class EngineRuns {

    private EngineRuns() {
    }

    static EngineConfig.Builder config(KafkaCluster kafka, String topic) {
        return EngineConfig.builder()
                .consumerProperties(kafka.clientProperties(Listener.PLAINTEXT))
                .consumerProperty(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 3_000)
                .consumerProperty(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500)
                .groupId(Names.unique("archiver"))
                .topics(topic)
                .commitInterval(Duration.ofMillis(200));
    }

    /** The sum of the group's committed offsets on {@code topic}: how many records a restart will not read again. */
    static long committed(KafkaCluster kafka, String group, String topic) throws Exception {
        return kafka.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().entrySet().stream()
                .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    /** Waits until the engine stops by itself, failed; returns the messages of its error and all its causes. */
    static String untilFailed(Engine engine, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (engine.health() != Health.FAILED) {
            if (System.nanoTime() > deadline) {
                engine.close();
                throw new AssertionError("the engine did not fail within " + timeout + ": " + engine.health());
            }
            Thread.sleep(20);
        }
        StringBuilder messages = new StringBuilder();
        for (Throwable t = engine.failure().orElseThrow(); t != null; t = t.getCause()) {
            messages.append(t).append('\n');
        }
        return messages.toString();
    }

    /** Waits until the engine has handed {@code records} records to the sink, then closes it cleanly. */
    static void untilWritten(Engine engine, long records, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (engine.stats().completed() < records) {
            if (System.nanoTime() > deadline || engine.health() == Health.FAILED) {
                engine.close();
                throw new AssertionError("the sink took " + engine.stats().completed() + " of " + records
                        + " records; " + engine.health() + " " + engine.failure());
            }
            Thread.sleep(20);
        }
        engine.close();
        assertEquals(Health.STOPPED, engine.health(), "clean close: " + engine.failure());
    }
}
