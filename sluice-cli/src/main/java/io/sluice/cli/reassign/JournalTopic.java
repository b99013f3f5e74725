package io.sluice.cli.reassign;

import io.sluice.cli.cluster.KafkaFlags;
import io.sluice.reassign.journal.ClusterJournal;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;

/**
 * The cluster's journal topic for a run of {@code execute} or {@code resume}, with the command's connection
 * settings; if the run creates the topic, it keeps it off the brokers the plan moves replicas from (a run that
 * empties a broker must not put a new replica on it).
 *
 * <p>Threading: stateless.
 */
final class JournalTopic {

    private JournalTopic() {
    }

    static ClusterJournal of(Admin admin, KafkaFlags kafka, ReassignmentPlan plan) {
        Set<Integer> losing = plan.moves().stream().flatMap(m -> m.removing().stream()).collect(Collectors.toSet());
        return new ClusterJournal(admin, kafka.clientProperties(Map.of()), losing);
    }
}
