package io.sluice.mirror.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.KafkaNode;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.ElectionNotNeededException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Faults between an exactly-once mirror and either cluster while the source is being written: the network cut
 * (connections reset, new ones refused) or black-holed (nothing flows, only timeouts tell), and the broker killed
 * with {@code kill -9} and restarted. Each fault lasts longer than the mirror's group session and its clients' request
 * timeouts ({@link #SHORT_TIMEOUTS}), so that it is seen as a failure, not as a slow reply. The mirror either rides it
 * out or stops and is started again, as a supervisor would; either way, once the fault healed, the target is an exact
 * copy. And a 3-node target whose partition leader dies while the mirror copies, then gets its leadership back.
 */
@Tag("slow")
class MirrorFaultTest {

    private static final int PARTITIONS = 3;
    private static final Duration FAULT = Duration.ofSeconds(4);

    /**
     * A 3 s session and 2 s requests on both sides: shorter than {@link #FAULT}, so a black hole trips the clients'
     * timeouts (Kafka's defaults, 30 s, would outlast it and prove only that a stall is ridden out).
     */
    private static final UnaryOperator<MirrorConfig.Builder> SHORT_TIMEOUTS = b -> b
            .sourceProperty("session.timeout.ms", 3_000)
            .sourceProperty("heartbeat.interval.ms", 300)
            .sourceProperty("request.timeout.ms", 2_000)
            .targetProperty("request.timeout.ms", 2_000);

    private static KafkaCluster source;
    private static KafkaCluster target;

    @BeforeAll
    static void startProxiedClusters() {
        var starting = CompletableFuture.supplyAsync(
                () -> KafkaCluster.builder().name("mirror-fault-target").proxied().start());
        try {
            source = KafkaCluster.builder().name("mirror-fault-source").proxied().start();
        } finally {
            target = starting.join(); // also when the source failed to start: stopClusters closes what started
        }
    }

    @AfterAll
    static void stopClusters() {
        if (source != null) {
            source.close();
        }
        if (target != null) {
            target.close();
        }
    }

    /** A fault, on one side of the mirror, and how it heals. */
    enum Fault {
        SOURCE_CUT(true, node -> node.proxy().cut(), node -> node.proxy().restore()),
        SOURCE_BLACK_HOLE(true, node -> node.proxy().blackhole(), node -> node.proxy().restore()),
        SOURCE_BROKER_KILLED(true, KafkaNode::kill, KafkaNode::start),
        TARGET_CUT(false, node -> node.proxy().cut(), node -> node.proxy().restore()),
        TARGET_BLACK_HOLE(false, node -> node.proxy().blackhole(), node -> node.proxy().restore()),
        TARGET_BROKER_KILLED(false, KafkaNode::kill, KafkaNode::start);

        final boolean atSource;
        final Consumer<KafkaNode> start;
        final Consumer<KafkaNode> heal;

        Fault(boolean atSource, Consumer<KafkaNode> start, Consumer<KafkaNode> heal) {
            this.atSource = atSource;
            this.start = start;
            this.heal = heal;
        }
    }

    @ParameterizedTest
    @EnumSource(Fault.class)
    void afterAFaultHealsTheTargetIsAnExactCopy(Fault fault) throws Exception {
        Clusters clusters = new Clusters(source, target);
        KafkaNode node = (fault.atSource ? source : target).nodes().get(0);
        copyThrough(clusters, "mfault-" + fault.name().toLowerCase().replace('_', '-'), SHORT_TIMEOUTS, () -> {
            fault.start.accept(node);
            TimeUnit.MILLISECONDS.sleep(FAULT.toMillis());
            fault.heal.accept(node);
        });
    }

    @Test
    void aLeaderChangeOnAThreeNodeTargetWhileCopyingLeavesAnExactCopy() throws Exception {
        try (KafkaCluster threeNodes = KafkaCluster.builder().name("mirror-fault-3").nodes(3).start()) {
            Clusters clusters = new Clusters(SharedKafka.cluster(), threeNodes);
            String prefix = "mleader";
            copyThrough(clusters, prefix, b -> b.replicationFactor((short) 3), () -> {
                String topic = onlyTopicStartingWith(threeNodes, prefix);
                TopicPartitionInfo before = partitionZero(threeNodes, topic);
                assertEquals(3, before.replicas().size(), "the mirror made the target topic with replication factor 3");
                int leader = before.leader().id();
                System.out.println("[mirror-fault] killing broker " + leader + ", leader of " + topic + "-0");
                threeNodes.node(leader).kill();
                // down until the controller has moved the leadership (broker.session.timeout.ms: 3 s), no longer
                TargetState.await("a new leader of " + topic + "-0", Duration.ofSeconds(30),
                        () -> {
                            int now = leaderOfPartitionZero(threeNodes, topic);
                            return now >= 0 && now != leader;
                        });
                threeNodes.node(leader).start();
                preferredLeaderBack(threeNodes, new TopicPartition(topic, 0)); // a second leader change
                System.out.println("[mirror-fault] leader of " + topic + "-0 now "
                        + partitionZero(threeNodes, topic).leader().id());
            });
        }
    }

    /** What happens while the source is written and the mirror copies; it ends when the fault has healed. */
    private interface During {
        void run() throws Exception;
    }

    /**
     * A source topic with a committed and an aborted transaction, copied to the end; then written on while
     * {@code during} runs and a bit more after it; the mirror (restarted whenever it stopped) reaches the end, and the
     * target must be an exact copy.
     */
    private static void copyThrough(Clusters clusters, String prefix, UnaryOperator<MirrorConfig.Builder> settings,
            During during) throws Exception {
        SourceTopic topic = new SourceTopic(clusters.source(), prefix, PARTITIONS);
        topic.produce(150);
        topic.commitAndAbort(20);
        topic.produce(150); // the source does not end in a marker: see MirrorMarkerTest for one that does
        MirrorConfig config = settings.apply(clusters.mirror(Names.unique(prefix), topic.name())).build();
        int restarts;
        try (SupervisedMirror mirror = new SupervisedMirror(config)) {
            mirror.awaitEnd(clusters, topic, Duration.ofSeconds(60));
            try (SourceTopic.Feed feed = topic.feed()) {
                TimeUnit.SECONDS.sleep(1);
                during.run();
                TimeUnit.SECONDS.sleep(1);
            }
            topic.produce(60);
            mirror.awaitEnd(clusters, topic, Duration.ofSeconds(120));
            restarts = mirror.restarts();
        }
        System.out.println("[mirror-fault] " + prefix + ": exact after " + restarts + " restarts");
        TargetState.assertExactlyOnce(clusters, config, topic);
    }

    private static String onlyTopicStartingWith(KafkaCluster cluster, String prefix) throws Exception {
        List<String> topics = cluster.admin().listTopics().names().get(30, TimeUnit.SECONDS).stream()
                .filter(t -> t.startsWith(prefix)).toList();
        if (topics.size() != 1) {
            throw new AssertionError("expected one target topic named " + prefix + "*: " + topics);
        }
        return topics.get(0);
    }

    /**
     * Gives the partition's leadership back to its preferred replica, as soon as the restarted broker has caught up
     * (until then the controller refuses: the preferred leader is not in sync).
     */
    private static void preferredLeaderBack(KafkaCluster cluster, TopicPartition partition) throws Exception {
        TargetState.await("the leadership of " + partition + " back at its preferred replica", Duration.ofSeconds(30),
                () -> {
                    try {
                        Optional<Throwable> outcome = cluster.admin().electLeaders(ElectionType.PREFERRED,
                                Set.of(partition)).partitions().get(30, TimeUnit.SECONDS).get(partition);
                        return outcome.isEmpty() || outcome.get() instanceof ElectionNotNeededException;
                    } catch (Exception e) {
                        throw new IllegalStateException("cannot elect the preferred leader of " + partition, e);
                    }
                });
    }

    /** The id of the leader, or -1 while there is none. */
    private static int leaderOfPartitionZero(KafkaCluster cluster, String topic) {
        try {
            Node leader = partitionZero(cluster, topic).leader();
            return leader == null || leader.isEmpty() ? -1 : leader.id();
        } catch (Exception e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        }
    }

    private static TopicPartitionInfo partitionZero(KafkaCluster cluster, String topic) throws Exception {
        TopicDescription description = cluster.admin().describeTopics(List.of(topic)).allTopicNames()
                .get(30, TimeUnit.SECONDS).get(topic);
        return description.partitions().stream().filter(p -> p.partition() == 0).findFirst().orElseThrow();
    }
}
