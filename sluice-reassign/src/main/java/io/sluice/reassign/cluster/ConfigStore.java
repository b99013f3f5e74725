package io.sluice.reassign.cluster;

import java.util.Optional;
import org.apache.kafka.common.config.ConfigResource;

/** Where a run's temporary configs are read and set: the cluster's dynamic configs ({@link DynamicConfigs}). */
public interface ConfigStore {

    /** The value set on {@code resource} for {@code key}, if one is. */
    Optional<String> dynamicValue(ConfigResource resource, String key);

    /**
     * Sets {@code key} to {@code value}, or deletes it when {@code value} is null.
     *
     * @throws ClusterException when the cluster refuses or does not answer
     */
    void set(ConfigResource resource, String key, String value);
}
