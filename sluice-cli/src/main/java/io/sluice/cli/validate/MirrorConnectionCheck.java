package io.sluice.cli.validate;

import io.sluice.cli.console.Console;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.core.ClusterConnection;
import io.sluice.mirror.MirrorConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * {@code validate --connect} for a mirror file: asks both clusters who they are, with the file's own settings and
 * credentials, and the source for the topics to copy (listed, or matched by the pattern). One line per check.
 *
 * <p>Threading: one thread.
 */
final class MirrorConnectionCheck {

    private final Console console;
    /** The source cluster's topics, once listed. */
    private java.util.Set<String> sourceTopics = java.util.Set.of();

    MirrorConnectionCheck(Console console) {
        this.console = console;
    }

    /** True when every check passed. */
    boolean check(MirrorConfig config) {
        Optional<String> source = cluster("source", config.sourceProperties(), config);
        Optional<String> target = cluster("target", config.targetProperties(), null);
        if (source.isPresent() && source.equals(target) && config.naming().isIdentity()) {
            // what the mirror refuses at start (Mirror.refuseCopyIntoItself), found here first
            console.result("clusters FAILED: the source and the target are the same cluster (" + source.get() + ") "
                    + "and the topics keep their names: the mirror would copy each topic into itself; name the target "
                    + "topics with a prefix or a template");
            return false;
        }
        if (source.isPresent() && source.equals(target)) {
            Optional<String> loop = config.copiesItsCopies(sourceTopics);
            if (loop.isPresent()) {
                console.result("clusters FAILED: " + loop.get());
                return false;
            }
        }
        return source.isPresent() && target.isPresent();
    }

    /**
     * Whether the cluster answers (one line, with its ID and brokers), and has {@code topicsOf}'s topics.
     *
     * @param topicsOf the mirror whose topics this cluster must have, or null
     * @return the cluster's ID when every check passed; empty otherwise
     */
    Optional<String> cluster(String role, Map<String, Object> properties, MirrorConfig topicsOf) {
        Object servers = properties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        try {
            // a refused port is said as such at once, not as an admin client's silence after the timeout
            new BootstrapProbe(Duration.ofSeconds(5)).verify(properties);
        } catch (BootstrapProbe.BootstrapException e) {
            console.result(role + ": " + servers + " FAILED: " + e.getMessage());
            return Optional.empty();
        }
        Map<String, Object> admin = new HashMap<>(ClusterConnection.of(properties));
        admin.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) ConnectionCheck.TIMEOUT_SECONDS * 1000);
        admin.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) ConnectionCheck.TIMEOUT_SECONDS * 1000 - 1000);
        try (Admin client = Admin.create(admin)) {
            var cluster = client.describeCluster();
            String id = cluster.clusterId().get(ConnectionCheck.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            int nodes = cluster.nodes().get(ConnectionCheck.TIMEOUT_SECONDS, TimeUnit.SECONDS).size();
            console.result(role + ": " + servers + " answers (cluster " + id + ", " + nodes
                    + (nodes == 1 ? " broker)" : " brokers)"));
            if (topicsOf == null) {
                return Optional.of(id);
            }
            var names = client.listTopics().names().get(ConnectionCheck.TIMEOUT_SECONDS, TimeUnit.SECONDS);
            sourceTopics = names;
            List<String> wanted = topicsOf.topicPattern().map(p -> names.stream()
                    .filter(n -> p.matcher(n).matches()).sorted().toList()).orElse(topicsOf.topics());
            boolean ok = !wanted.isEmpty();
            if (!ok) {
                console.result("topics FAILED: none matches '" + topicsOf.topicPattern().orElseThrow() + "'");
            }
            for (String topic : wanted) {
                boolean exists = names.contains(topic);
                console.result("topic " + topic + (exists ? ": exists" : " FAILED: it does not exist"));
                ok &= exists;
            }
            return ok ? Optional.of(id) : Optional.empty();
        } catch (Exception e) {
            console.result(role + ": " + servers + " FAILED: " + ConnectionCheck.reason(e));
            return Optional.empty();
        }
    }
}
