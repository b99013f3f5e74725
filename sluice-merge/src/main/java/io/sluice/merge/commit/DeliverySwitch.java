package io.sluice.merge.commit;

import io.sluice.merge.MergeConfig;
import java.util.Collection;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;

/**
 * The refusal of a claim whose partitions were merged under the other delivery: their state is in the other group,
 * so this one would start from the inputs' beginning and write everything into the output again.
 *
 * <p>Threading: stateless; called by a claim, on the owners group's thread, and by {@code validate --connect}.
 */
public final class DeliverySwitch {

    private DeliverySwitch() {
    }

    /** Throws, in words, when {@code found} (partitions with a state in {@code group}) is not empty. */
    static void refuse(Collection<TopicPartition> found, MergeConfig config, String group, String otherDelivery) {
        Optional<String> refusal = problem(found, config, group, otherDelivery);
        if (refusal.isPresent()) {
            throw new IllegalStateException(refusal.get());
        }
    }

    /**
     * The refusal in words when {@code found} (partitions with a state in {@code group}, written under
     * {@code otherDelivery}) is not empty.
     */
    public static Optional<String> problem(Collection<TopicPartition> found, MergeConfig config, String group,
            String otherDelivery) {
        if (found.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("output partitions " + found.stream().map(TopicPartition::toString).sorted()
                .collect(Collectors.joining(", ")) + " of merge '" + config.name() + "' were merged with delivery "
                + otherDelivery + " (their committed state is in group '" + group + "'): under another delivery "
                + "this merge would start again from the inputs' beginning and write every record once more. Keep "
                + "delivery: " + otherDelivery + ", or merge into a new output under a new merge name.");
    }
}
