package io.sluice.mirror.audit;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Whether a topic's log cleaner may remove records (its effective {@code cleanup.policy} contains {@code compact},
 * whether set on the topic or inherited from the brokers), and for how long it keeps tombstones.
 *
 * @param compacted whether the cleaner compacts the topic
 * @param deleteRetentionMs {@code delete.retention.ms}: tombstones are kept at least this long after they were cleaned
 */
record CompactionPolicy(boolean compacted, long deleteRetentionMs) {

    /** A topic that is not compacted: the audit's strict rules. */
    static final CompactionPolicy NONE = new CompactionPolicy(false, Long.MAX_VALUE);

    /** The policies of {@code topics} in the cluster of {@code admin}, by topic name. */
    static Map<String, CompactionPolicy> of(Admin admin, Collection<String> topics, String side,
            MirrorAuditConfig config) {
        Map<String, CompactionPolicy> policies = new HashMap<>();
        if (topics.isEmpty()) {
            return policies;
        }
        Map<ConfigResource, Config> configs = MirrorAudit.answer(admin.describeConfigs(topics.stream()
                .map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList()).all(),
                "read the configs of the " + side + " topics " + topics, config);
        configs.forEach((resource, c) -> policies.put(resource.name(), of(c)));
        return policies;
    }

    private static CompactionPolicy of(Config config) {
        ConfigEntry policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        ConfigEntry retention = config.get(TopicConfig.DELETE_RETENTION_MS_CONFIG);
        boolean compacted = policy != null && policy.value() != null
                && policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT);
        long deleteRetention = retention == null || retention.value() == null ? Long.MAX_VALUE
                : Long.parseLong(retention.value());
        return new CompactionPolicy(compacted, deleteRetention);
    }
}
