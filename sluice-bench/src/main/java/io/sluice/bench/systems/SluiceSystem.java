package io.sluice.bench.systems;

import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Ordering;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Sluice's engine, KEY ordering, with the scenario's concurrency. */
final class SluiceSystem {

    private SluiceSystem() {
    }

    static void run(String bootstrap, String topic, int concurrency, SystemMain.Handler handler, Measurement m)
            throws Exception {
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(bootstrap)
                .groupId(SystemMain.group("sluice"))
                .topics(topic)
                .ordering(Ordering.KEY)
                .concurrency(concurrency)
                .build();
        try (Engine engine = Engine.start(config, new ByteArrayDeserializer(), new ByteArrayDeserializer(),
                record -> handler.handle(record.value()))) {
            m.awaitDone(30 * 60_000);
        }
    }
}
