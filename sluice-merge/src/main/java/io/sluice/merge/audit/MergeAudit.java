package io.sluice.merge.audit;

import io.sluice.core.ClusterConnection;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeInput;
import io.sluice.merge.state.MergeState;
import io.sluice.merge.state.StateCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The proof behind {@code sluice verify} for a merge: for every output partition, as read_committed readers see the
 * clusters now, the output (with the late and dead-letter topics) holds each committed input record below the merge's
 * committed positions exactly once and unchanged, nothing else, and the records not flagged late in merge order. The
 * first difference is named (missing, duplicate, changed, out of order, beyond the committed position, stranger).
 *
 * <p>At least once, "once" becomes "at least once": a record written again is counted, not a problem, and so is a
 * record beyond the committed position (written, its commit not made yet); the order is checked from each
 * resumption on ({@link io.sluice.merge.write.MergeHeaders#RESUMED}), so a repeated window passes, and records of
 * an unfenced former owner interleaved with the new owner's do not.
 *
 * <p>Threading: {@link #run} on the calling thread.
 */
public final class MergeAudit {

    private MergeAudit() {
    }

    public static MergeAuditReport run(MergeConfig config) throws Exception {
        boolean atLeastOnce = config.delivery() == MergeDelivery.AT_LEAST_ONCE;
        MergeAuditReport report = new MergeAuditReport(atLeastOnce);
        StateCodec codec = config.stateCodec();
        List<CommittedRecords> inputs = new ArrayList<>();
        try (Admin admin = Admin.create(ClusterConnection.of(config.targetProperties()));
                CommittedRecords target = new CommittedRecords(config.targetProperties())) {
            for (MergeInput input : config.inputs()) {
                inputs.add(new CommittedRecords(input.clientProperties()));
            }
            int partitions = admin.describeTopics(Set.of(config.outputTopic())).allTopicNames()
                    .get(30, TimeUnit.SECONDS).get(config.outputTopic()).partitions().size();
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(
                            Map.of(config.stateGroup(), new ListConsumerGroupOffsetsSpec()),
                            new ListConsumerGroupOffsetsOptions().requireStable(true))
                    .partitionsToOffsetAndMetadata(config.stateGroup()).get(30, TimeUnit.SECONDS);
            int late = sidePartitions(admin, config.lateTopic().orElse(null));
            int dead = sidePartitions(admin, config.deadLetterTopic().orElse(null));
            for (int p = 0; p < partitions; p++) {
                TopicPartition out = new TopicPartition(config.outputTopic(), p);
                OffsetAndMetadata state = committed.get(out);
                long[] positions = state == null ? startsOf(inputs, config, p)
                        : codec.decode(state.metadata(), state.offset(), "the committed state of " + out).positions();
                PartitionAudit audit = new PartitionAudit(config, p, report.partition(p, positions), atLeastOnce);
                if (late > 0) {
                    audit.readAside(target, new TopicPartition(config.lateTopic().get(), p % late), "late");
                }
                if (dead > 0) {
                    audit.readAside(target, new TopicPartition(config.deadLetterTopic().get(), p % dead),
                            "dead-letter");
                }
                audit.readOutput(target, out);
                audit.matchInputs(inputs, positions);
            }
        } finally {
            inputs.forEach(CommittedRecords::close);
        }
        return report;
    }

    /** A partition never committed: nothing is promised, so every input is checked from where it begins (to there). */
    private static long[] startsOf(List<CommittedRecords> inputs, MergeConfig config, int p) {
        long[] starts = new long[inputs.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = inputs.get(i).start(new TopicPartition(config.inputs().get(i).topic(), p));
        }
        return MergeState.initial(starts).positions();
    }

    private static int sidePartitions(Admin admin, String topic) throws Exception {
        if (topic == null) {
            return 0;
        }
        try {
            return admin.describeTopics(Set.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                    .partitions().size();
        } catch (java.util.concurrent.ExecutionException e) {
            return 0; // never created: nothing was set aside
        }
    }
}
