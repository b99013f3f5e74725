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
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Before the first record: does the topic exist, and do the brokers take our login? Asked once, with an admin client,
 * so that a typo in the topic or a wrong password is one sentence and exit status 1, not every line failing after
 * the producer's metadata wait.
 *
 * <p>Stateless.
 */
final class TopicCheck {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private TopicCheck() {
    }

    /** @return how many partitions {@code topic} has */
    static int partitions(Map<String, ?> clientProperties, String topic) throws RunFailure {
        Map<String, Object> props = ClusterConnection.of(clientProperties);
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis() / 2);
        String where = String.valueOf(clientProperties.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
        try (Admin admin = Admin.create(props)) {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS).get(topic);
            return description.partitions().size();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof UnknownTopicOrPartitionException) {
                throw new RunFailure("topic '" + topic + "' does not exist in the cluster at " + where + ": create it "
                        + "first (sluice produce never creates topics)", cause);
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
