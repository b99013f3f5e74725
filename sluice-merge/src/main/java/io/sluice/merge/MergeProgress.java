package io.sluice.merge;

import io.sluice.core.ClusterConnection;
import io.sluice.merge.state.MergeState;
import io.sluice.merge.state.StateCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a merge is, read from outside it (for {@code sluice lag} and a run's progress line): per output partition
 * and input, the position committed with the output, and the input partition's end as read_committed readers see it.
 * Reads the committed states the merge writes (docs/merge.md, "Exactly once") and takes no part in the merge.
 *
 * <p>Threading: one thread at a time; {@link #close} when done.
 */
public final class MergeProgress implements AutoCloseable {

    /**
     * One input partition behind one output partition.
     *
     * @param committed the position committed with the output (the next offset not yet merged), or -1 before the
     *                  partition's first commit
     * @param start     where the input partition begins: where a merge without a commit starts
     * @param end       the input partition's last stable offset
     */
    public record InputLag(int partition, String input, long committed, long start, long end) {

        /** Records of the input not merged yet (and committed). */
        public long lag() {
            return Math.max(0, end - (committed >= 0 ? committed : start));
        }
    }

    private final MergeConfig config;
    private final Duration timeout;
    private final Admin target;
    private final List<Admin> inputs = new ArrayList<>();

    private MergeProgress(MergeConfig config, Duration timeout) {
        this.config = config;
        this.timeout = timeout;
        this.target = Admin.create(ClusterConnection.of(config.targetProperties()));
        for (MergeInput input : config.inputs()) {
            inputs.add(Admin.create(ClusterConnection.of(input.clientProperties())));
        }
    }

    /** Each answer waits at most {@code timeout}. */
    public static MergeProgress of(MergeConfig config, Duration timeout) {
        return new MergeProgress(config, timeout);
    }

    /**
     * Per output partition (as many as the first input's topic has) and input in the configured order, how far the
     * merge is.
     *
     * @throws IllegalStateException in words, when a committed state belongs to another configuration
     * @throws Exception             when a cluster does not answer within the timeout
     */
    public List<InputLag> read() throws Exception {
        Map<Integer, MergeState> states = committed();
        int partitions = inputs.get(0).describeTopics(Set.of(config.inputs().get(0).topic())).allTopicNames()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS).get(config.inputs().get(0).topic()).partitions()
                .size();
        List<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> starts = new ArrayList<>();
        List<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> ends = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            starts.add(offsets(i, partitions, OffsetSpec.earliest()));
            ends.add(offsets(i, partitions, OffsetSpec.latest()));
        }
        List<InputLag> lags = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            MergeState state = states.get(p);
            for (int i = 0; i < inputs.size(); i++) {
                TopicPartition tp = new TopicPartition(config.inputs().get(i).topic(), p);
                long start = starts.get(i).containsKey(tp) ? starts.get(i).get(tp).offset() : 0;
                long end = ends.get(i).containsKey(tp) ? ends.get(i).get(tp).offset() : start;
                lags.add(new InputLag(p, config.inputs().get(i).name(), state == null ? -1 : state.position(i), start, end));
            }
        }
        return lags;
    }

    /** The committed state of each output partition that has one. */
    private Map<Integer, MergeState> committed() throws Exception {
        StateCodec codec = config.stateCodec();
        Map<TopicPartition, OffsetAndMetadata> offsets = target.listConsumerGroupOffsets(config.stateGroup())
                .partitionsToOffsetAndMetadata().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        Map<Integer, MergeState> states = new HashMap<>();
        offsets.forEach((tp, offset) -> {
            if (offset != null && tp.topic().equals(config.outputTopic())) {
                states.put(tp.partition(), codec.decode(offset.metadata(), offset.offset(), "the committed state of "
                        + tp));
            }
        });
        return states;
    }

    private Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> offsets(int input, int partitions,
            OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(config.inputs().get(input).topic(), p), spec);
        }
        // a merge reads read_committed: its end is the last stable offset, never an open transaction's records
        return inputs.get(input).listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        target.close(Duration.ofSeconds(5));
        inputs.forEach(a -> a.close(Duration.ofSeconds(5)));
    }
}
