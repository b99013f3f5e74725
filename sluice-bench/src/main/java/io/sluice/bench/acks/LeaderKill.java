package io.sluice.bench.acks;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.KafkaNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * The fault of an acks trial: {@code kill -9} of the broker that leads most of a topic's partitions, so that most
 * records in flight lose their leader at once, then its restart on the same data, begun at once and awaited later.
 * The broker's log keeps what the leader appended (the page cache survives a killed process); what its followers had
 * not fetched is lost only because a follower becomes leader and the restarted broker truncates to it.
 *
 * <p>Threading: made and used by the trial's thread; the restart runs on a thread of the common pool.
 */
final class LeaderKill {

    private static final Duration BACK_TIMEOUT = Duration.ofSeconds(120);

    private final KafkaCluster cluster;
    private final String topic;
    private final KafkaNode victim;
    private CompletableFuture<Void> restart;

    /** Picks the broker leading most of {@code topic}'s partitions now (the lowest id among equals). */
    LeaderKill(KafkaCluster cluster, String topic) {
        this.cluster = cluster;
        this.topic = topic;
        Map<Integer, Long> leaders = describe().partitions().stream()
                .collect(Collectors.groupingBy(p -> p.leader().id(), TreeMap::new, Collectors.counting()));
        int id = -1;
        long most = 0;
        for (Map.Entry<Integer, Long> e : leaders.entrySet()) { // ascending ids: the first of equals stays
            if (e.getValue() > most) {
                id = e.getKey();
                most = e.getValue();
            }
        }
        this.victim = cluster.node(id);
    }

    int victimId() {
        return victim.id();
    }

    /** {@code kill -9} now, and starts the broker again in the background. */
    void killAndRestart() {
        victim.kill();
        restart = CompletableFuture.runAsync(victim::start);
    }

    /**
     * Waits until the broker serves again and every replica of the topic is back in sync, so that the next trial
     * finds three in-sync replicas and a reader sees the partitions as the restarted broker left them.
     */
    void awaitBack() {
        long deadline = System.nanoTime() + BACK_TIMEOUT.toNanos();
        try {
            restart.get(BACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("broker " + victim.id() + " did not start again: " + victim.logTail(),
                    e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("broker " + victim.id() + " not back within " + BACK_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        int replicas = cluster.nodes().size();
        while (true) {
            List<TopicPartitionInfo> partitions = describe().partitions();
            if (partitions.stream().allMatch(p -> p.isr().size() == replicas)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the replicas of " + topic + " are not all in sync after "
                        + BACK_TIMEOUT + ": " + partitions);
            }
            sleep(100);
        }
    }

    private TopicDescription describe() {
        try {
            return cluster.admin().describeTopics(Set.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot describe " + topic, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
