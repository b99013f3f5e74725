package io.sluice.cli.cluster;

import io.sluice.cli.RunFailure;
import io.sluice.cli.pipeline.SourceConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * Admin access to a pipeline's brokers: the topics a pattern matches, with short timeouts so an unreachable cluster
 * is reported in seconds rather than after the client's minute of retries.
 *
 * <p>Stateless.
 */
public final class SourceTopics {

    static final int TIMEOUT_SECONDS = 15;

    private SourceTopics() {
    }

    /** An admin client of the source's brokers, with the source's security settings. */
    public static Admin admin(SourceConfig source) {
        Map<String, Object> props = new HashMap<>(source.connectionProperties());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_SECONDS * 1000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_SECONDS * 1000 - 1000);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, "sluice-admin-" + source.group());
        return Admin.create(props);
    }

    /** The source's topics, or those its pattern matches now, sorted. */
    public static List<String> resolve(SourceConfig source) throws RunFailure {
        if (source.pattern() == null) {
            return source.topics();
        }
        try (Admin admin = admin(source)) {
            List<String> matching = admin.listTopics().names().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).stream()
                    .filter(name -> source.pattern().matcher(name).matches()).sorted().toList();
            if (matching.isEmpty()) {
                throw new RunFailure("no topic of " + String.join(",", source.bootstrapServers()) + " matches '"
                        + source.pattern().pattern() + "' (the pattern must match whole names)");
            }
            return matching;
        } catch (ExecutionException | TimeoutException e) {
            throw new RunFailure("cannot list the topics of " + String.join(",", source.bootstrapServers()) + ": "
                    + (e.getCause() != null ? e.getCause().getMessage() : "no answer within " + TIMEOUT_SECONDS + " s"), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while listing topics", e);
        }
    }
}
