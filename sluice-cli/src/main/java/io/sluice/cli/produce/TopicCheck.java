package io.sluice.cli.produce;

import io.sluice.cli.RunFailure;
import io.sluice.core.ClusterConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Before the first record: does the topic exist, how large may a batch be, and do the brokers take our login? Asked once, with an admin client,
 * so that a typo in the topic or a wrong password is one sentence and exit status 1, not every line failing after
 * the producer's metadata wait.
 *
 * <p>Stateless.
 */
final class TopicCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private TopicCheck() {
    }

    /**
     * What the command needs to know of the topic.
     *
     * @param maxMessageBytes the largest batch the topic takes ({@code max.message.bytes})
     * @param rules           what it takes of each record
     */
    record Facts(int partitions, int maxMessageBytes, TopicRules rules) {
    }

    /** The topic's rules for records, from its configuration; a setting it does not give sets no limit. */
    static TopicRules rules(String topic, int partitions, Config config) {
        ConfigEntry type = config.get(TopicConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG);
        ConfigEntry policy = config.get(TopicConfig.CLEANUP_POLICY_CONFIG);
        return new TopicRules(topic, partitions, type == null || "CreateTime".equals(type.value()),
                millis(config.get(TopicConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG)),
                millis(config.get(TopicConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG)),
                policy != null && policy.value() != null && policy.value().contains(TopicConfig.CLEANUP_POLICY_COMPACT),
                Long.MAX_VALUE);
    }

    private static Duration millis(ConfigEntry entry) {
        try {
            return Duration.ofMillis(entry == null || entry.value() == null ? Long.MAX_VALUE
                    : Long.parseLong(entry.value().trim()));
        } catch (NumberFormatException e) {
            return Duration.ofMillis(Long.MAX_VALUE);
        }
    }

    static Facts of(Map<String, ?> clientProperties, String topic) throws RunFailure {
        Map<String, Object> props = ClusterConnection.of(clientProperties);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis() / 2);
        String where = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS).get(topic);
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            Config config = admin.describeConfigs(List.of(resource)).all().get(TIMEOUT.toSeconds() + 5,
                    TimeUnit.SECONDS).get(resource);
            ConfigEntry maxMessageBytes = config.get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            int partitions = description.partitions().size();
            return new Facts(partitions, maxMessageBytes == null ? Integer.MAX_VALUE
                    : Integer.parseInt(maxMessageBytes.value()), rules(topic, partitions, config));
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                // never created here: a typo in the name would make a topic, with the broker's default partitions
                throw new RunFailure("topic '" + topic + "' does not exist in the cluster at " + where + ": create it "
                        + "first, with the partitions and settings it needs, e.g. ./sluice topic create -b " + where
                        + " -t " + topic + " --partitions 4 (sluice produce never creates topics: a typo in the name "
                        + "would make one)", cause);
            }
            if (cause instanceof org.apache.kafka.common.errors.SslAuthenticationException) {
                // this client refused the brokers' certificate as often as they refused it: not "refused the login"
                String words = io.sluice.cli.run.EngineRun.describe(cause);
                throw new RunFailure("the TLS handshake with the brokers at " + where + " failed: " + words
                        + (words.contains("PKIX path") ? " (the truststore does not hold "
                        + "the certificate of the authority that signed the brokers' certificates)" : ""), cause);
            }
            if (cause instanceof AuthenticationException) {
                throw new RunFailure("the brokers at " + where + " refused the login: " + cause.getMessage(), cause);
            }
            if (cause instanceof AuthorizationException) {
                throw new RunFailure("not allowed to describe topic '" + topic + "' at " + where + ": "
                        + cause.getMessage(), cause);
            }
            throw new RunFailure("cannot reach topic '" + topic + "' at " + where + ": " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new RunFailure("no broker at " + where + " answered within " + TIMEOUT.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while looking up topic '" + topic + "'", e);
        }
    }
}
