package io.sluice.core;

import static io.sluice.core.EngineTestSupport.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class EngineMetricsTest {

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void metersCountRecordsTimeProcessingAndReportAStuckWatermark() throws Exception {
        String topic = Names.unique("metrics");
        kafka.createTopic(topic, 2);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 1_000);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        CountDownLatch release = new CountDownLatch(1);
        LongAdder done = new LongAdder();
        EngineConfig config = EngineTestSupport.config(kafka, topic).meterRegistry(registry)
                .ordering(Ordering.UNORDERED).stuckThreshold(Duration.ofMillis(300)).build();
        try (Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
            if (record.value().equals("v500")) {
                release.await();
            }
            done.increment();
        })) {
            await("all but the held record", Duration.ofSeconds(30), () -> done.sum() == 999);
            await("the stuck partition reported", Duration.ofSeconds(10),
                    () -> registry.get("sluice.partitions.stuck").gauge().value() == 1.0,
                    () -> engine.partitions().toString());
            await("the stuck partition in the partition view", Duration.ofSeconds(5),
                    () -> engine.partitions().stream().anyMatch(p -> p.stuckMillis() >= 300 && p.watermarkGap() > 0),
                    () -> engine.partitions().toString());
            assertEquals(1.0, registry.get("sluice.in.flight").gauge().value());
            assertTrue(registry.get("sluice.queued.records").gauge().value() >= 1.0, "the held record is queued");
            Gauge behind = registry.find("sluice.partition.lag").gauges().stream().filter(g -> g.value() > 0)
                    .findFirst().orElseThrow(() -> new AssertionError("no partition's lag shows the held record"));
            release.countDown();
            // the same series follows the partition: rows registered again every second were new series, and a
            // scrape between the removal and the addition missed the partition
            await("the held record's partition caught up, in the same series", Duration.ofSeconds(10),
                    () -> behind.value() == 0.0);
            await("the last record", Duration.ofSeconds(10), () -> done.sum() == 1_000);
            await("nothing stuck", Duration.ofSeconds(10),
                    () -> registry.get("sluice.partitions.stuck").gauge().value() == 0.0);
            await("per-partition lag at zero", Duration.ofSeconds(10), () -> registry.find("sluice.partition.lag")
                    .gauges().stream().allMatch(g -> g.value() == 0.0) && !registry.find("sluice.partition.lag")
                    .gauges().isEmpty());
            // Micrometer holds a weak reference to what a gauge reads: one read NaN after a full collection
            System.gc();
            assertEquals(0.0, registry.get("sluice.source.unanswered.seconds").gauge().value(),
                    "the broker answers, after a full collection too");
        }
        assertEquals(1_000, registry.get("sluice.records.completed").functionCounter().count());
        assertEquals(1_000, registry.get("sluice.records.consumed").functionCounter().count());
        assertEquals(1_000, registry.get("sluice.processing").timer().count());
        assertTrue(registry.get("sluice.commits").functionCounter().count() >= 1);
        assertEquals(2, registry.find("sluice.partition.committed.offset").gauges().size());
    }

    /**
     * An engine started again in the same JVM, with the same group and registry (an application restarting it after
     * a failure), reports its own figures: Micrometer ignored the second registration, so the meters read the stopped
     * engine's.
     */
    @Test
    void anEngineStartedAgainOnTheSameRegistryReportsItsOwnFigures() throws Exception {
        String topic = Names.unique("metrics-again");
        kafka.createTopic(topic, 1);
        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 100);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineConfig config = EngineTestSupport.config(kafka, topic).meterRegistry(registry).build();
        LongAdder done = new LongAdder();
        Engine first = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.increment());
        try (first) {
            await("the first engine's records", Duration.ofSeconds(30), () -> done.sum() == 100);
        }
        assertEquals(100, registry.get("sluice.records.completed").functionCounter().count(),
                "a stopped engine's totals stay for a last scrape");
        assertEquals(Health.STOPPED, first.health()); // and it is held until then, as a run's command holds it

        TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 100, 30);
        try (Engine again = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.increment())) {
            // the engine counts a record once its completion is taken, a moment after the handler returned
            await("the second engine's own count", Duration.ofSeconds(30),
                    () -> registry.get("sluice.records.completed").functionCounter().count() == 30,
                    () -> registry.get("sluice.records.completed").functionCounter().count() + " counted");
            assertEquals(130, done.sum(), "each record once");
            assertEquals(1, registry.find("sluice.records.completed").functionCounters().size());
        }
    }

    /** Two engines of one group running at once on one registry share the first one's meters: neither loses any. */
    @Test
    void twoEnginesOfOneGroupRunningAtOnceShareTheirMeters() throws Exception {
        String topic = Names.unique("metrics-two");
        kafka.createTopic(topic, 2);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EngineConfig config = EngineTestSupport.config(kafka, topic).meterRegistry(registry).build();
        LongAdder done = new LongAdder();
        try (Engine a = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                record -> done.increment());
                Engine b = Engine.start(config, new StringDeserializer(), new StringDeserializer(),
                        record -> done.increment())) {
            await("both engines assigned", Duration.ofSeconds(30),
                    () -> !a.partitions().isEmpty() && !b.partitions().isEmpty());
            TestRecords.produceNumbered(kafka.clientProperties(Listener.PLAINTEXT), topic, 0, 200);
            await("every record", Duration.ofSeconds(30), () -> done.sum() == 200);
            await("every record timed, whichever engine processed it", Duration.ofSeconds(10),
                    () -> registry.get("sluice.processing").timer().count() == 200,
                    () -> registry.get("sluice.processing").timer().count() + " timed");
        }
    }
}
