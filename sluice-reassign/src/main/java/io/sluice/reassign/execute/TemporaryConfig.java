package io.sluice.reassign.execute;

import org.apache.kafka.common.config.ConfigResource;

/**
 * A config a run sets for its duration only (a throttle, a guarding retention), and takes back at the end.
 *
 * <p>Immutable.
 */
public record TemporaryConfig(ConfigResource.Type type, String name, String key, String value) {

    public static TemporaryConfig broker(int broker, String key, String value) {
        return new TemporaryConfig(ConfigResource.Type.BROKER, Integer.toString(broker), key, value);
    }

    public static TemporaryConfig topic(String topic, String key, String value) {
        return new TemporaryConfig(ConfigResource.Type.TOPIC, topic, key, value);
    }

    public String id() {
        return type + "/" + name + "/" + key;
    }
}
