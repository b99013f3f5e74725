package io.sluice.reassign.cluster;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
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

    /** How long a change may take to reach the broker that answers reads of it. */
    private static final long VISIBLE_SECONDS = 30;

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
        String doing = (value == null ? "delete " : "set ") + key + " on " + describe(resource);
        AdminCalls.get(admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all(), doing);
        awaitVisible(resource, key, value, doing);
    }

    /**
     * Waits until a read of {@code resource} shows the change. The controller takes a change before the brokers
     * apply it from the metadata log, and a broker answers a read from what it has applied: `check --fix` said
     * "fixed" and a `check` right after still found the throttle it had just removed (a CI run).
     */
    private void awaitVisible(ConfigResource resource, String key, String value, String doing) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(VISIBLE_SECONDS);
        long pauseMillis = 20;
        while (!Objects.equals(dynamicValue(resource, key).orElse(null), value)) {
            if (System.nanoTime() - deadline > 0) {
                throw new ClusterException("cannot " + doing + ": the cluster took the change, but "
                        + describe(resource) + " did not show it within " + VISIBLE_SECONDS + " s; run `sluice "
                        + "reassign check` to see what is set", null);
            }
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterException("cannot " + doing + ": interrupted", e);
            }
            pauseMillis = Math.min(pauseMillis * 2, 500);
        }
    }

    public static String describe(ConfigResource resource) {
        return (resource.type() == ConfigResource.Type.BROKER ? "broker " : "topic ") + resource.name();
    }
}
