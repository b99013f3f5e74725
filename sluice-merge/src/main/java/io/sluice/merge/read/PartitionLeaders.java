package io.sluice.merge.read;

import io.sluice.core.commit.Silence;
import io.sluice.merge.MergeInput;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of an input's partitions have no leader in its cluster (the brokers that hold them are down, or they lost every
 * in-sync replica), from the reader's consumer's metadata. The cluster answers (its other brokers do), so the input's
 * silence watch ({@link InputReach}) says nothing, yet such a partition can be neither read nor confirmed at its end:
 * it is said once after the grace period, and once when it has a leader again. The reader leaves it out of the ends it
 * confirms, so that the input's other partitions go on ({@link InputReader}).
 *
 * <p>Threading: the reader's thread looks ({@link #look}); {@link #withoutLeader} from any thread.
 */
final class PartitionLeaders {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");

    private final MergeInput input;
    private final Duration grace;
    private final Duration maxWait;
    private final Map<Integer, Silence> silences = new HashMap<>();
    /** The partitions said to have no leader, with how long, at the last look: what other threads read. */
    private volatile Map<Integer, Duration> said = Map.of();

    PartitionLeaders(MergeInput input, Duration grace, Duration maxWait) {
        this.input = input;
        this.grace = grace;
        this.maxWait = maxWait;
    }

    /** Reader thread: the partitions assigned to the reader, and those of them its consumer knows no leader for. */
    void look(long now, Set<Integer> assigned, Set<Integer> leaderless) {
        silences.keySet().retainAll(assigned);
        Map<Integer, Duration> saying = new TreeMap<>();
        for (int partition : assigned) {
            Silence silence = silences.computeIfAbsent(partition, p -> new Silence(grace));
            switch (silence.look(now, !leaderless.contains(partition), true)) {
                case BEGAN -> LOG.warn("input '{}' partition {} has no leader in its cluster ({}) for {} s: the brokers "
                        + "that hold it are down, or it lost every in-sync replica. The input's other partitions go "
                        + "on; the merge goes on without this one once it has not been heard of for max-wait ({}): "
                        + "what it sends later below the merged position is late", input.name(), partition, cluster(),
                        silence.seconds(), InputReach.describe(maxWait));
                case ENDED -> LOG.info("input '{}' partition {} has a leader again, after {} s; reading it goes on",
                        input.name(), partition, silence.seconds());
                case NONE -> { }
            }
            silence.length(now).ifPresent(d -> saying.put(partition, d));
        }
        said = saying.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(saying);
    }

    /** The partitions said to have no leader at the last look, with how long; any thread. */
    Map<Integer, Duration> withoutLeader() {
        return said;
    }

    /** The reader is stopping: nothing it sees from now on says anything about the cluster. */
    void closing() {
        said = Map.of();
    }

    private String cluster() {
        return String.valueOf(input.clientProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    }
}
