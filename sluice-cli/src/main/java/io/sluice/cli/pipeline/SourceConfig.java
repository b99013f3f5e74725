package io.sluice.cli.pipeline;

import io.sluice.cli.config.Problems;
import io.sluice.cli.config.Settings;
import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.StartPosition;
import io.sluice.core.ClusterConnection;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The Kafka side of a pipeline: brokers, topics (or a pattern), group, where to start, and client settings (security
 * from the tls and sasl sections, plus any other consumer setting).
 *
 * <p>Immutable; validated at construction. Passwords in the settings are Kafka {@code Password}s.
 *
 * @param topics      the topics, or empty when {@code pattern} chooses them
 * @param maxReadRate bytes a second to read at most, or null for no limit
 * @param security    settings made from the tls and sasl sections
 * @param extra       other consumer settings from {@code source.properties}
 */
public record SourceConfig(List<String> bootstrapServers, List<String> topics, Pattern pattern, String group,
        StartPosition start, OutOfRangePolicy onOutOfRange, Long maxReadRate, Map<String, Object> security,
        Map<String, Object> extra) {

    public SourceConfig {
        bootstrapServers = List.copyOf(bootstrapServers);
        topics = topics == null ? List.of() : List.copyOf(topics);
        security = Map.copyOf(security);
        extra = Map.copyOf(extra);
        InvalidSetting.check(!topics.isEmpty() || pattern != null, PipelineKeys.TOPICS,
                "give the topics to archive (topics: [a, b]) or a pattern (pattern: 'clicks-.*')");
        InvalidSetting.check(topics.isEmpty() || pattern == null, PipelineKeys.PATTERN,
                "give either topics or pattern, not both");
    }

    static SourceConfig from(Settings s, Path base, Problems problems) {
        Map<String, Object> security = KafkaSecurity.properties(s, base, PipelineKeys.SOURCE_CLUSTER);
        Map<String, Object> extra = KafkaProperties.check(s.find(PipelineKeys.KAFKA_PROPERTIES).orElse(List.of()),
                security, problems, PipelineKeys.SOURCE_CLUSTER);
        return new SourceConfig(s.get(PipelineKeys.BOOTSTRAP_SERVERS), s.get(PipelineKeys.TOPICS),
                s.get(PipelineKeys.PATTERN), s.get(PipelineKeys.GROUP), s.get(PipelineKeys.START),
                s.get(PipelineKeys.ON_OUT_OF_RANGE), s.get(PipelineKeys.MAX_READ_RATE), security, extra);
    }

    /**
     * Settings for any Kafka client of this source (consumer, admin, producer): bootstrap servers, security and the
     * extra settings. Without the group, which only the engine's consumer takes.
     */
    public Map<String, Object> clientProperties() {
        Map<String, Object> p = new LinkedHashMap<>(extra);
        p.putAll(security);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, String.join(",", bootstrapServers));
        return p;
    }

    /** Only the connection settings (servers, security), for admin clients and probes. */
    public Map<String, Object> connectionProperties() {
        return ClusterConnection.of(clientProperties());
    }

    /** The security protocol the clients will use. */
    public String securityProtocol() {
        return String.valueOf(clientProperties().getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG,
                "PLAINTEXT"));
    }

    /** For messages: {@code topics clicks, views} or {@code topics matching 'clicks-.*'}. */
    public String describeTopics() {
        return pattern != null ? "topics matching '" + pattern.pattern() + "'" : "topics " + String.join(", ", topics);
    }
}
