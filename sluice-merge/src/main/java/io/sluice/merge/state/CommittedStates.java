package io.sluice.merge.state;

import io.sluice.core.ClusterConnection;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.commit.DeliverySwitch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * What a start would refuse about the committed states in the target, asked before one: states kept under the other
 * delivery (the claim's {@link DeliverySwitch}), and states that another configuration of the merge wrote (inputs
 * reordered or renamed, another order key, an output topic created again: {@link StateCodec#decode}). For
 * {@code validate --connect}, which otherwise passed a file its run then refused.
 *
 * <p>Threading: stateless; each call makes and closes its own admin client.
 */
public final class CommittedStates {

    private CommittedStates() {
    }

    /** The refusals in words, one per kind found; empty when a start would take the states as they are. */
    public static List<String> problems(MergeConfig config, Duration timeout) throws Exception {
        List<String> problems = new ArrayList<>();
        try (Admin target = Admin.create(ClusterConnection.of(config.targetProperties()))) {
            boolean exactlyOnce = config.delivery() == MergeDelivery.EXACTLY_ONCE;
            String otherGroup = exactlyOnce ? config.ownersGroup() : config.progressGroup();
            DeliverySwitch.problem(statesIn(target, otherGroup, config, timeout).keySet(), config, otherGroup,
                    exactlyOnce ? "at-least-once" : "exactly-once").ifPresent(problems::add);
            OtherMergesOutput.problem(config, timeout).filter(p -> OtherMergesOutput.refuses(config))
                    .ifPresent(problems::add);
            StateCodec codec = outputTopicId(target, config, timeout).map(config.stateCodec()::forOutput)
                    .orElse(config.stateCodec());
            for (Map.Entry<TopicPartition, OffsetAndMetadata> state
                    : statesIn(target, config.stateGroup(), config, timeout).entrySet()) {
                try {
                    codec.decode(state.getValue().metadata(), state.getValue().offset(), "the committed state of "
                            + state.getKey());
                } catch (IllegalStateException e) {
                    problems.add(e.getMessage());
                    break; // every partition's would say the same
                }
            }
        }
        return problems;
    }

    /** The output topic's ID, as the start ties its states to it; empty without the topic (or with an old broker). */
    private static Optional<String> outputTopicId(Admin target, MergeConfig config, Duration timeout)
            throws Exception {
        try {
            TopicDescription output = target.describeTopics(List.of(config.outputTopic())).allTopicNames()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(config.outputTopic());
            return Optional.ofNullable(output).map(TopicDescription::topicId).filter(id -> !Uuid.ZERO_UUID.equals(id))
                    .map(Uuid::toString);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** The output partitions {@code group} holds a state for. */
    static Map<TopicPartition, OffsetAndMetadata> statesIn(Admin target, String group, MergeConfig config,
            Duration timeout) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = target.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return offsets.entrySet().stream()
                .filter(e -> e.getValue() != null && e.getKey().topic().equals(config.outputTopic()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
