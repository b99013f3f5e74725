package io.sluice.cli.reassign;

import io.sluice.cli.RunFailure;
import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.cli.probe.BootstrapProbe;
import io.sluice.reassign.cluster.ClusterException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine;

/**
 * The admin client of a reassign command, from {@code --bootstrap-servers} and {@code -X}, and the cluster's
 * failures as the command's words.
 *
 * <p>Threading: used by the command's thread.
 */
final class ClusterConnection {

    /** Something a reassign command does with the cluster. */
    interface Work<T> {
        T run(Admin admin) throws Exception;
    }

    private ClusterConnection() {
    }

    static <T> T with(KafkaFlags flags, CommandLine.Model.CommandSpec spec, Work<T> work) throws Exception {
        Map<String, Object> props = flags.clientProperties(Map.of());
        if (props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give the brokers: --bootstrap-servers");
        }
        // before the admin client, whose calls would wait 60 s on a wrong port and then say so in its own API's words
        try {
            new BootstrapProbe(Duration.ofSeconds(5)).verify(props)
                    .forEach(w -> spec.commandLine().getErr().println("sluice reassign: warning: " + w));
        } catch (BootstrapProbe.BootstrapException e) {
            if (e.mismatch()) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            throw new RunFailure("no broker answers: " + e.getMessage());
        }
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        try (Admin admin = Admin.create(props)) {
            return work.run(admin);
        } catch (ClusterException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }
}
