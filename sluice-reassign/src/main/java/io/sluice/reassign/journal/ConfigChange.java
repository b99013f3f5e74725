package io.sluice.reassign.journal;

import org.apache.kafka.common.config.ConfigResource;

/**
 * A config the run changed: on which topic or broker, which key, the value it set, and the value before
 * ({@code null}: the key was not set there, so restoring deletes it).
 *
 * <p>Immutable.
 */
public record ConfigChange(ConfigResource.Type type, String name, String key, String value, String previous) {

    public ConfigResource resource() {
        return new ConfigResource(type, name);
    }

    /** Which config this is, whatever value: a run changes each at most once. */
    public String id() {
        return type + "/" + name + "/" + key;
    }

    @Override
    public String toString() {
        return (type == ConfigResource.Type.BROKER ? "broker " : "topic ") + name + " " + key;
    }
}
