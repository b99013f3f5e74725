package io.sluice.producer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class ProducerSettingsTest {

    private static final Map<String, Object> CONNECTION = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092");

    @Test
    void theSafeSettingsReplaceTheConnectionsOwnAndKeepItsAddress() {
        Map<String, Object> connection = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092",
                ProducerConfig.ACKS_CONFIG, "0", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "false");
        ProducerSettings settings = ProducerSettings.on(connection).build();
        Map<String, Object> props = settings.properties();
        assertEquals("b:9092", props.get(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG));
        assertEquals("all", props.get(ProducerConfig.ACKS_CONFIG));
        assertEquals(true, props.get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals(5, props.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
        assertEquals(List.of(), settings.risks());
    }

    @Test
    void harmlessSettingsAndDefaultsApplyWithTheConnectionsValueFirst() {
        Map<String, Object> connection = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        Map<String, Object> props = ProducerSettings.on(connection)
                .setIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000)
                .setIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000)
                .set(ProducerConfig.LINGER_MS_CONFIG, 10)
                .set(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "2")
                .build().properties();
        assertEquals(60_000, props.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG));
        assertEquals(15_000, props.get(ProducerConfig.MAX_BLOCK_MS_CONFIG));
        assertEquals(10, props.get(ProducerConfig.LINGER_MS_CONFIG));
        assertEquals("2", props.get(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION));
    }

    @Test
    void everySettingThatCanLoseRecordsIsRefusedByName() {
        assertRefused(ProducerConfig.ACKS_CONFIG, "1");
        assertRefused(ProducerConfig.ACKS_CONFIG, 0);
        assertRefused(ProducerConfig.RETRIES_CONFIG, "0");
        assertRefused(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        assertRefused(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 6);
    }

    @Test
    void aConnectionThatDisablesRetriesIsRefusedToo() {
        Map<String, Object> connection = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "b:9092",
                ProducerConfig.RETRIES_CONFIG, 0);
        UnsafeProducerSettingsException e = assertThrows(UnsafeProducerSettingsException.class,
                () -> ProducerSettings.on(connection).build());
        // the idempotence this gives up follows from it: the refusal names only what was set
        assertEquals(List.of("retries"), e.risks().stream().map(LossRisk::setting).toList());
    }

    @Test
    void allowedLossIsAppliedAndListedAndGivesUpIdempotenceWhichKafkaWouldRefuse() {
        ProducerSettings settings = ProducerSettings.on(CONNECTION).set(ProducerConfig.ACKS_CONFIG, "1")
                .allowLoss(true).build();
        assertEquals("1", settings.properties().get(ProducerConfig.ACKS_CONFIG));
        assertEquals(false, settings.properties().get(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG));
        assertEquals(List.of("acks", "enable.idempotence"), settings.risks().stream().map(LossRisk::setting).toList());
        assertTrue(settings.risks().get(1).consequence().startsWith("turned off by the settings above"),
                settings.risks().toString());
    }

    @Test
    void safeValuesWrittenOtherwiseAreNoRisk() {
        assertEquals(List.of(), LossRisk.in(Map.of(ProducerConfig.ACKS_CONFIG, "-1",
                ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, " TRUE ",
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, "5")));
        assertEquals(List.of(), LossRisk.in(Map.of(ProducerConfig.ACKS_CONFIG, "All")));
    }

    private static void assertRefused(String key, Object value) {
        UnsafeProducerSettingsException e = assertThrows(UnsafeProducerSettingsException.class,
                () -> ProducerSettings.on(CONNECTION).set(key, value).build(), key + "=" + value);
        assertTrue(e.risks().stream().anyMatch(r -> r.setting().equals(key)), e.risks().toString());
        assertTrue(e.getMessage().startsWith("refused producer settings that can lose records: "), e.getMessage());
        assertTrue(e.getMessage().contains(key + "=" + value + " ("), e.getMessage());
        if (!key.equals(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG)) {
            assertTrue(!e.getMessage().contains(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG), "not set, so not named: "
                    + e.getMessage());
        }
    }
}
