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
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;

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
     * @param end       the input partition's last stable offset, or -1 when its cluster did not say in time (a
     *                  partition without a leader while the cluster's other brokers answer)
     */
    public record InputLag(int partition, String input, long committed, long start, long end) {

        /** Whether the input partition's end is known: its cluster answered for it in time. */
        public boolean known() {
            return end >= 0;
        }

        /** Records of the input not merged yet (and committed); 0 when the end is not {@link #known}. */
        public long lag() {
            return known() ? Math.max(0, end - (committed >= 0 ? committed : start)) : 0;
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
     * @throws Exception             when the target, or every input's cluster, does not answer within the timeout (an
     *                               input that does not answer has its ends unknown: {@link InputLag#known})
     */
    public List<InputLag> read() throws Exception {
        return read(Set.of());
    }

    /**
     * As {@link #read()}, without asking the inputs named in {@code silent} (known not to answer: their ends are
     * unknown at once rather than after the timeout).
     */
    public List<InputLag> read(Set<String> silent) throws Exception {
        Map<Integer, MergeState> states = committed();
        // one deadline for the descriptions and the offsets: a cluster that answers nothing costs one timeout
        long deadline = System.nanoTime() + timeout.toNanos();
        List<KafkaFuture<TopicDescription>> described = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            String topic = config.inputs().get(i).topic();
            described.add(silent.contains(config.inputs().get(i).name())
                    ? KafkaFuture.completedFuture(null)
                    : inputs.get(i).describeTopics(Set.of(topic)).topicNameValues().get(topic));
        }
        int partitions = partitions(described, deadline);
        // a partition without a leader (its brokers are down) is not asked at all
        List<ListOffsetsResult> startsAsked = new ArrayList<>();
        List<ListOffsetsResult> endsAsked = new ArrayList<>();
        List<Set<Integer>> asked = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            Set<Integer> led = silent.contains(config.inputs().get(i).name()) ? Set.of()
                    : led(described.get(i), partitions, deadline);
            asked.add(led);
            startsAsked.add(ask(i, led, OffsetSpec.earliest()));
            endsAsked.add(ask(i, led, OffsetSpec.latest()));
        }
        List<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> starts = new ArrayList<>();
        List<Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo>> ends = new ArrayList<>();
        for (int i = 0; i < inputs.size(); i++) {
            starts.add(answers(startsAsked.get(i), i, asked.get(i), deadline));
            ends.add(answers(endsAsked.get(i), i, asked.get(i), deadline));
        }
        List<InputLag> lags = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            MergeState state = states.get(p);
            for (int i = 0; i < inputs.size(); i++) {
                TopicPartition tp = new TopicPartition(config.inputs().get(i).topic(), p);
                long start = starts.get(i).containsKey(tp) ? starts.get(i).get(tp).offset() : 0;
                long end = ends.get(i).containsKey(tp) ? ends.get(i).get(tp).offset() : -1;
                lags.add(new InputLag(p, config.inputs().get(i).name(), state == null ? -1 : state.position(i), start, end));
            }
        }
        return lags;
    }

    /**
     * The partition count, from the first input whose cluster describes its topic: one input down left every input's
     * lag unknown (the line and {@code sluice_merge_lag} of the inputs that answered went blank with it, a new user's
     * run). Throws when none answers.
     */
    private static int partitions(List<KafkaFuture<TopicDescription>> described, long deadline) throws Exception {
        Exception first = null;
        for (KafkaFuture<TopicDescription> description : described) {
            try {
                TopicDescription answer = description.get(Math.max(0, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
                if (answer != null) { // null: an input not asked
                    return answer.partitions().size();
                }
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                first = first == null ? e : first;
            }
        }
        throw first != null ? first : new java.util.concurrent.TimeoutException("no input was asked");
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

    /**
     * The partitions of an input's topic that have a leader, from its description; all of them when the description
     * did not come (asking them then is how their answers, or their silence, are learnt).
     */
    private Set<Integer> led(KafkaFuture<TopicDescription> description, int partitions, long deadline)
            throws InterruptedException {
        Set<Integer> led = new TreeSet<>();
        try {
            for (TopicPartitionInfo p : description.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)
                    .partitions()) {
                if (p.partition() < partitions && p.leader() != null && !p.leader().isEmpty()) {
                    led.add(p.partition());
                }
            }
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            for (int p = 0; p < partitions; p++) {
                led.add(p);
            }
        }
        return led;
    }

    private ListOffsetsResult ask(int input, Set<Integer> partitions, OffsetSpec spec) {
        if (partitions.isEmpty()) {
            return null; // nothing to ask: answers() asks it for no partition
        }
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p : partitions) {
            request.put(new TopicPartition(config.inputs().get(input).topic(), p), spec);
        }
        // a merge reads read_committed: its end is the last stable offset, never an open transaction's records
        return inputs.get(input).listOffsets(request, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED));
    }

    /**
     * The offsets of the input's partitions that its cluster gave by {@code deadline}, partition by partition: one
     * partition without a leader answers nothing, and waiting for all at once lost every input's lag with it (the
     * progress line dropped "behind" for as long as it lasted). A cluster that gave none leaves all of them unknown.
     */
    private Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> answers(ListOffsetsResult result, int input,
            Set<Integer> partitions, long deadline) throws InterruptedException {
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> found = new HashMap<>();
        for (int p : partitions) {
            TopicPartition tp = new TopicPartition(config.inputs().get(input).topic(), p);
            try {
                found.put(tp, result.partitionResult(tp).get(Math.max(0, deadline - System.nanoTime()),
                        TimeUnit.NANOSECONDS));
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                // its end unknown: the row says so, and the other partitions and inputs keep theirs
            }
        }
        return found;
    }

    @Override
    public void close() {
        target.close(Duration.ofSeconds(5));
        inputs.forEach(a -> a.close(Duration.ofSeconds(5)));
    }
}
