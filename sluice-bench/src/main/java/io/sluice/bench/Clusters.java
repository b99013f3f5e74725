package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Single-node clusters of a benchmark run's own, each with its own cluster ID, started at once (a broker's start is
 * mostly waiting); closing them deletes their data. If one fails to start, those that started are closed.
 *
 * <p>Threading: one thread.
 */
final class Clusters implements AutoCloseable {

    private final List<KafkaCluster> clusters;

    private Clusters(List<KafkaCluster> clusters) {
        this.clusters = clusters;
    }

    /** One cluster per name, in that order. */
    static Clusters start(String... names) {
        List<CompletableFuture<KafkaCluster>> starting = new ArrayList<>();
        for (String name : names) {
            starting.add(CompletableFuture.supplyAsync(() -> KafkaCluster.builder().name(name)
                    .jvmOptions(BenchMain.BROKER_JVM).start()));
        }
        List<KafkaCluster> started = new ArrayList<>();
        RuntimeException failed = null;
        for (CompletableFuture<KafkaCluster> s : starting) {
            try {
                started.add(s.join());
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        Clusters clusters = new Clusters(started);
        if (failed != null) {
            clusters.close();
            throw failed;
        }
        return clusters;
    }

    /** The cluster started for the {@code i}-th name. */
    KafkaCluster get(int i) {
        return clusters.get(i);
    }

    @Override
    public void close() {
        RuntimeException failed = null;
        for (KafkaCluster c : clusters) {
            try {
                c.close();
            } catch (RuntimeException e) {
                failed = failed == null ? e : failed;
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
