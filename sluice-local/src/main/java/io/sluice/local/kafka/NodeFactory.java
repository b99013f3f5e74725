package io.sluice.local.kafka;

import io.sluice.local.net.FaultProxy;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ServerRuntime;
import io.sluice.local.tls.TlsMaterial;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every node of one {@link KafkaCluster} shares (folder, cluster ID, controller quorum, listeners, broker
 * settings), so that a node can be made at start and another one joined to the running cluster later the same way.
 *
 * <p>Immutable.
 */
record NodeFactory(Path root, String name, String clusterId, String voters, int initialSize, TlsMaterial tls,
        boolean scram, boolean proxied, List<String> jvmOptions, Map<String, String> overrides) {

    NodeFactory {
        jvmOptions = List.copyOf(jvmOptions);
        // in the order given, so server.properties reads as the builder was called
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }

    /** Ports for a new node, behind a fault proxy when the cluster is proxied. */
    NodePorts allocatePorts() {
        return NodePorts.allocate(tls != null, scram);
    }

    /**
     * A node not started yet. A controller node votes in the static quorum; a broker-only node
     * ({@code process.roles=broker}) joins the quorum's cluster as a plain broker, as a new machine does.
     */
    KafkaNode node(int id, NodePorts ports, FaultProxy proxy, boolean controller, String rack) {
        Path nodeDir = root.resolve("node-" + id);
        Path config = BrokerProperties.write(nodeDir, id, ports, voters, initialSize, tls, scram, controller, rack,
                overrides);
        KraftStorage.prepare(nodeDir.resolve("data"), id, clusterId);
        return new KafkaNode(id, ports, nodeDir, jvm(name, id, nodeDir, config, jvmOptions), proxy);
    }

    /** The JVM of node {@code id}, running Kafka on {@code config} in {@code nodeDir}; also for a reopened node. */
    static ChildJvm jvm(String name, int id, Path nodeDir, Path config, List<String> jvmOptions) {
        return ChildJvm.builder(name + "-" + id)
                .runtime(ServerRuntime.KAFKA)
                .jvmOptions(jvmOptions)
                .systemProperty("log4j2.configurationFile", ServerRuntime.LOG4J2_CONFIG)
                .mainClass("kafka.Kafka")
                .args(config.toString())
                .workDir(nodeDir)
                .logFile(nodeDir.resolve("broker.log"))
                .build();
    }
}
