package io.sluice.cli.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

class PropertyFlagsTest {

    private static final Map<String, ConfigDef> CLIENTS = new LinkedHashMap<>(Map.of("consumer",
            ConsumerConfig.configDef()));

    static {
        CLIENTS.put("admin client", AdminClientConfig.configDef());
    }

    @Test
    void typosAndRefusedValuesAreMistakesEachSaid() {
        Map<String, String> flags = new LinkedHashMap<>();
        flags.put("secuirty.protocol", "SSL");
        flags.put("request.timeout.ms", "soon");
        flags.put("client.id", "me");
        assertEquals(List.of("-X secuirty.protocol: not a Kafka consumer or admin client setting; did you mean "
                + "'security.protocol'?", "-X request.timeout.ms: Invalid value soon for configuration "
                + "request.timeout.ms: Not a number of type INT"), PropertyFlags.problems(flags, CLIENTS));
        assertEquals(List.of("-X acks: Invalid value 2 for configuration acks: String must be one of: all, -1, 0, 1"),
                PropertyFlags.problems(Map.of("acks", "2"), Map.of("producer", ProducerConfig.configDef())));
    }

    /** What no client lists but the clients accept: config providers' keys, and values a provider fills in. */
    @Test
    void configProvidersAndTheirReferencesPass() {
        Map<String, String> flags = Map.of("config.providers", "env",
                "config.providers.env.class", "org.apache.kafka.common.config.provider.EnvVarConfigProvider",
                "request.timeout.ms", "${env:TIMEOUT}", "sasl.jaas.config", "secret");
        assertEquals(List.of(), PropertyFlags.problems(flags, CLIENTS));
        assertEquals(List.of(), PropertyFlags.problems(null, CLIENTS));
    }
}
