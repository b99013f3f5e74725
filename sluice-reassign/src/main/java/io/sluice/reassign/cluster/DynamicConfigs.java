package io.sluice.reassign.cluster;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Reads and changes single dynamic configs of topics and brokers: the value set on the resource itself (not a
 * default inherited from elsewhere), set, and deleted.
 *
 * <p>Threading: stateless apart from the caller's admin client, which is thread-safe.
 */
public final class DynamicConfigs implements ConfigStore {

    private final Admin admin;

    public DynamicConfigs(Admin admin) {
        this.admin = admin;
    }

    /** The value of {@code key} set on {@code resource} itself, if any. */
    @Override
    public Optional<String> dynamicValue(ConfigResource resource, String key) {
        return Optional.ofNullable(dynamicValues(List.of(resource)).get(resource).get(key));
    }

    /** Per resource, the configs set on it itself (topic overrides, per-broker dynamic configs). */
    public Map<ConfigResource, Map<String, String>> dynamicValues(Collection<ConfigResource> resources) {
        Map<ConfigResource, Config> configs = AdminCalls.get(admin.describeConfigs(resources,
                new DescribeConfigsOptions().includeSynonyms(false)).all(), "describe configs");
        Map<ConfigResource, Map<String, String>> values = new HashMap<>();
        configs.forEach((resource, config) -> {
            Map<String, String> own = new HashMap<>();
            for (ConfigEntry entry : config.entries()) {
                if (entry.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG
                        || entry.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG) {
                    if (entry.value() != null) {
                        own.put(entry.name(), entry.value());
                    }
                }
            }
            values.put(resource, own);
        });
        return values;
    }

    @Override
    public void set(ConfigResource resource, String key, String value) {
        AlterConfigOp op = value == null
                ? new AlterConfigOp(new ConfigEntry(key, ""), AlterConfigOp.OpType.DELETE)
                : new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET);
        AdminCalls.get(admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all(),
                (value == null ? "delete " : "set ") + key + " on " + describe(resource));
    }

    public static String describe(ConfigResource resource) {
        return (resource.type() == ConfigResource.Type.BROKER ? "broker " : "topic ") + resource.name();
    }
}
