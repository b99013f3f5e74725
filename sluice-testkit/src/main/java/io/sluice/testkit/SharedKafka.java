package io.sluice.testkit;

import io.sluice.local.kafka.KafkaCluster;

/**
 * One single-node broker per test JVM (and a second one for tests between clusters), started on first use and killed when the JVM exits. Tests that share it use
 * unique topic and group names ({@link Names}); tests that kill, restart or proxy a broker start their own.
 */
public final class SharedKafka {

    private SharedKafka() {
    }

    private static final class Holder {
        static final KafkaCluster CLUSTER = start();

        private static KafkaCluster start() {
            KafkaCluster cluster = KafkaCluster.builder().name("shared-kafka").start();
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "shared-kafka-close"));
            return cluster;
        }
    }

    public static KafkaCluster cluster() {
        return Holder.CLUSTER;
    }

    /** A second single-node cluster, for tests that copy between clusters (mirrors); started on first use. */
    public static KafkaCluster second() {
        return Second.CLUSTER;
    }

    private static final class Second {
        static final KafkaCluster CLUSTER = start();

        private static KafkaCluster start() {
            KafkaCluster cluster = KafkaCluster.builder().name("shared-kafka-2").start();
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "shared-kafka-2-close"));
            return cluster;
        }
    }
}
