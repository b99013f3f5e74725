package io.sluice.core;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * Where a cluster is and how to reach it, picked out of a client's settings: the bootstrap servers, DNS lookup and
 * every security setting, and nothing that belongs to one kind of client. An admin client or producer beside a
 * consumer (or beside a target's producer) connects with these and its own settings.
 */
public final class ClusterConnection {

    private ClusterConnection() {
    }

    /** The connection settings among {@code clientProperties}. */
    public static Map<String, Object> of(Map<String, ?> clientProperties) {
        Map<String, Object> connection = new HashMap<>();
        clientProperties.forEach((k, v) -> {
            if (k.startsWith("security.") || k.startsWith("ssl.") || k.startsWith("sasl.")
                    || k.equals(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)
                    || k.equals(CommonClientConfigs.CLIENT_DNS_LOOKUP_CONFIG)) {
                connection.put(k, v);
            }
        });
        return connection;
    }
}
