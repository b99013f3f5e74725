package io.sluice.cli.cluster;

import io.sluice.local.kafka.KafkaCluster;

/**
 * One broker with plain, TLS and SCRAM-over-TLS listeners per test JVM, started on first use and closed when the JVM
 * exits, for the tests of secure connections (the probe, pipelines with tls and sasl sections). Tests that share it
 * use unique topic and group names.
 */
public final class SecureKafka {

    private SecureKafka() {
    }

    private static final class Holder {
        static final KafkaCluster CLUSTER = start();

        private static KafkaCluster start() {
            KafkaCluster cluster = KafkaCluster.builder().name("secure-kafka").tls().scram().start();
            Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "secure-kafka-close"));
            return cluster;
        }
    }

    public static KafkaCluster cluster() {
        return Holder.CLUSTER;
    }
}
