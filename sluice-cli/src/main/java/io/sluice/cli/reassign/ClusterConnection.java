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

    /** Something a reassign command does with the cluster; returns the command's exit status. */
    interface Work {
        Integer run(Admin admin) throws Exception;
    }

    private ClusterConnection() {
    }

    /**
     * Runs {@code work} with an admin client of the cluster, once a broker answered at the bootstrap address: a port
     * that speaks another protocol than the settings say exits 2 (a usage mistake, said in a line: the synopsis would
     * not help), one where no broker answers exits 1.
     */
    static Integer with(KafkaFlags flags, CommandLine.Model.CommandSpec spec, Work work) throws Exception {
        Map<String, Object> props = flags.clientProperties(Map.of());
        if (props.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG) == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give the brokers: --bootstrap-servers");
        }
        // before the admin client, whose calls would wait 60 s on a wrong port and then say so in its own API's words
        int probed = new BootstrapProbe(Duration.ofSeconds(5)).verifyFor("sluice reassign", props,
                spec.commandLine().getErr());
        if (probed != 0) {
            return probed;
        }
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000);
        try (Admin admin = Admin.create(props)) {
            return work.run(admin);
        } catch (ClusterException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }
}
