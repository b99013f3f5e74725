package io.sluice.local.kafka;

import io.sluice.local.tls.TlsMaterial;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes the {@code server.properties} of one test node, and reads its ports back. */
final class BrokerProperties {

    private BrokerProperties() {
    }

    /**
     * {@code controller} false makes a broker-only node that joins the quorum of the others; {@code rack} (or null)
     * is its {@code broker.rack}.
     */
    static Path write(Path nodeDir, int nodeId, NodePorts ports, String voters, int clusterSize, TlsMaterial tls,
            boolean scram, boolean controller, String rack, Map<String, String> overrides) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", controller ? "broker,controller" : "broker");
        p.put("node.id", Integer.toString(nodeId));
        p.put("controller.quorum.voters", voters);
        p.put("controller.listener.names", "CONTROLLER");
        p.put("inter.broker.listener.name", "INTERNAL");

        List<String> listeners = new ArrayList<>(List.of(
                "PLAINTEXT://127.0.0.1:" + ports.plaintext(),
                "INTERNAL://127.0.0.1:" + ports.internal()));
        if (controller) {
            listeners.add("CONTROLLER://127.0.0.1:" + ports.controller());
        }
        if (rack != null) {
            p.put("broker.rack", rack);
        }
        List<String> advertised = new ArrayList<>(List.of(
                "PLAINTEXT://127.0.0.1:" + ports.advertised(),
                "INTERNAL://127.0.0.1:" + ports.internal()));
        List<String> protocols = new ArrayList<>(List.of(
                "PLAINTEXT:PLAINTEXT", "INTERNAL:PLAINTEXT", "CONTROLLER:PLAINTEXT"));
        if (tls != null) {
            listeners.add("SSL://127.0.0.1:" + ports.ssl());
            advertised.add("SSL://127.0.0.1:" + ports.ssl());
            protocols.add("SSL:SSL");
            p.put("ssl.keystore.location", tls.keyStore().toString());
            p.put("ssl.keystore.type", "PKCS12");
            p.put("ssl.keystore.password", tls.password());
            p.put("ssl.key.password", tls.password());
        }
        if (scram) {
            listeners.add("SASL://127.0.0.1:" + ports.sasl());
            advertised.add("SASL://127.0.0.1:" + ports.sasl());
            protocols.add(tls != null ? "SASL:SASL_SSL" : "SASL:SASL_PLAINTEXT");
            p.put("sasl.enabled.mechanisms", "SCRAM-SHA-256");
            p.put("listener.name.sasl.scram-sha-256.sasl.jaas.config",
                    "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        }
        p.put("listeners", String.join(",", listeners));
        p.put("advertised.listeners", String.join(",", advertised));
        p.put("listener.security.protocol.map", String.join(",", protocols));
        p.put("log.dirs", nodeDir.resolve("data").toString());

        int replication = Math.min(3, clusterSize);
        int minIsr = replication >= 3 ? 2 : 1;
        p.put("default.replication.factor", Integer.toString(replication));
        p.put("min.insync.replicas", Integer.toString(minIsr));
        p.put("offsets.topic.replication.factor", Integer.toString(replication));
        p.put("transaction.state.log.replication.factor", Integer.toString(replication));
        p.put("transaction.state.log.min.isr", Integer.toString(minIsr));
        p.put("share.coordinator.state.topic.replication.factor", Integer.toString(replication));
        p.put("share.coordinator.state.topic.min.isr", Integer.toString(minIsr));
        // fewer internal partitions: the first group or transaction of a run does not wait for 50 of them
        p.put("offsets.topic.num.partitions", "4");
        p.put("transaction.state.log.num.partitions", "4");
        p.put("share.coordinator.state.topic.num.partitions", "4");

        // tests create their topics explicitly, so a typo (or a deleted dead-letter topic) is an error, not a new topic
        p.put("auto.create.topics.enable", "false");
        p.put("group.initial.rebalance.delay.ms", "0");
        // a killed group member is noticed in about a second instead of 45
        p.put("group.min.session.timeout.ms", "500");
        p.put("group.consumer.min.session.timeout.ms", "1000");
        p.put("group.consumer.session.timeout.ms", "6000");
        p.put("group.consumer.min.heartbeat.interval.ms", "100");
        p.put("group.consumer.heartbeat.interval.ms", "500");
        p.put("group.share.min.session.timeout.ms", "1000");
        p.put("group.share.session.timeout.ms", "6000");
        p.put("group.share.min.heartbeat.interval.ms", "100");
        p.put("group.share.heartbeat.interval.ms", "500");
        // a dead broker loses its leaderships in seconds, not nine
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "500");
        // retention tests see deletions in seconds
        p.put("log.retention.check.interval.ms", "1000");
        p.put("log.initial.task.delay.ms", "0");
        // a small broker: two cores are shared with the clients under test
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "2");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("background.threads", "2");
        p.put("log.cleaner.threads", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(8 * 1024 * 1024));
        p.putAll(overrides);

        StringBuilder text = new StringBuilder("# written by the Sluice test kit\n");
        p.forEach((k, v) -> text.append(k).append('=').append(v.replace("\\", "\\\\")).append('\n'));
        Path file = nodeDir.resolve("server.properties");
        try {
            Files.createDirectories(nodeDir);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * The PLAINTEXT, internal and controller ports of a node whose {@code server.properties} {@link #write} wrote, so
     * that it restarts on the same addresses.
     */
    static NodePorts ports(Path config) {
        java.util.Properties p = new java.util.Properties();
        try (var in = Files.newBufferedReader(config, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Integer> listeners = listenerPorts(p.getProperty("listeners", ""));
        Map<String, Integer> advertised = listenerPorts(p.getProperty("advertised.listeners", ""));
        for (String name : List.of("PLAINTEXT", "INTERNAL", "CONTROLLER")) {
            if (!listeners.containsKey(name)) {
                throw new IllegalStateException(config + " has no " + name + " listener");
            }
        }
        return new NodePorts(listeners.get("PLAINTEXT"), advertised.getOrDefault("PLAINTEXT",
                listeners.get("PLAINTEXT")), listeners.get("INTERNAL"), listeners.get("CONTROLLER"),
                listeners.getOrDefault("SSL", -1), listeners.getOrDefault("SASL", -1));
    }

    /** {@code NAME://host:port,...} as name to port. */
    private static Map<String, Integer> listenerPorts(String listeners) {
        Map<String, Integer> ports = new LinkedHashMap<>();
        for (String listener : listeners.split(",")) {
            int scheme = listener.indexOf("://");
            int colon = listener.lastIndexOf(':');
            if (scheme > 0 && colon > scheme) {
                ports.put(listener.substring(0, scheme).trim(), Integer.parseInt(listener.substring(colon + 1).trim()));
            }
        }
        return ports;
    }
}
