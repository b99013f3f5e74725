package io.sluice.local.kafka;

import io.sluice.local.LocalDirs;
import io.sluice.local.net.FaultProxy;
import io.sluice.local.tls.TlsMaterial;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Real Apache Kafka servers in KRaft mode, each a child JVM started from the Maven Central jars: one node for most
 * tests and the quick start, three (replication factor 3, {@code min.insync.replicas} 2) for tests where a broker
 * dies.
 *
 * <p>Each node runs broker and controller in one process, with a static controller quorum. Besides the client
 * listeners ({@link Listener}), every node has an internal listener for replication and for the cluster's own
 * admin client, so a proxied PLAINTEXT listener can be cut without cutting the cluster from itself.
 *
 * <p>{@link #addBroker} joins a broker-only node to the running cluster, as a new machine joins a real one; nodes
 * can be given racks ({@link Builder#racks}).
 *
 * <p>Group timeouts are lowered so a killed group member is noticed in about a second: clients may use session
 * timeouts down to 500 ms (classic protocol) or 1 s (the KIP-848 consumer protocol).
 *
 * <p>Threading: safe for concurrent use after {@link Builder#start()}; node lifecycle calls are serialized per node.
 */
public final class KafkaCluster implements AutoCloseable {

    /** Memory and start-up friendly options for a test broker; benchmarks pass their own. */
    public static final List<String> TEST_JVM_OPTIONS =
            List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private static final String SCRAM_USER = "sluice";

    private final List<KafkaNode> nodes;
    private final NodeFactory factory;
    private final TlsMaterial tls;
    private final String scramPassword;
    private final Path dir;
    private final boolean ownsDir;
    private Admin admin;

    private KafkaCluster(List<KafkaNode> nodes, NodeFactory factory, TlsMaterial tls, String scramPassword, Path dir,
            boolean ownsDir) {
        // nodes can be added while other threads read the list
        this.nodes = new CopyOnWriteArrayList<>(nodes);
        this.factory = factory;
        this.tls = tls;
        this.scramPassword = scramPassword;
        this.dir = dir;
        this.ownsDir = ownsDir;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The PLAINTEXT bootstrap servers (through the fault proxies when the cluster is proxied). */
    public String bootstrapServers() {
        return bootstrapServers(Listener.PLAINTEXT);
    }

    public String bootstrapServers(Listener listener) {
        return nodes.stream().map(n -> "127.0.0.1:" + port(n.ports(), listener)).collect(Collectors.joining(","));
    }

    /** Bootstrap servers and security settings for a client of {@code listener}. */
    public Map<String, Object> clientProperties(Listener listener) {
        Map<String, Object> props = new HashMap<>();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(listener));
        switch (listener) {
            case PLAINTEXT -> props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
            case SSL -> {
                props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
                props.putAll(tls().clientProperties());
            }
            case SASL -> {
                props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, tls != null ? "SASL_SSL" : "SASL_PLAINTEXT");
                props.putAll(scramClientProperties(SCRAM_USER, scramPassword()));
                if (tls != null) {
                    props.putAll(tls.clientProperties());
                }
            }
        }
        return props;
    }

    /** SASL settings for a SCRAM-SHA-256 login as {@code user} (the listener's protocol is set by the caller). */
    public static Map<String, Object> scramClientProperties(String user, String password) {
        return Map.of(
                SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256",
                SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"" + user + "\" password=\"" + password + "\";");
    }

    public String scramUser() {
        scramPassword();
        return SCRAM_USER;
    }

    public String scramPassword() {
        if (scramPassword == null) {
            throw new IllegalStateException("the cluster was built without scram()");
        }
        return scramPassword;
    }

    public TlsMaterial tls() {
        if (tls == null) {
            throw new IllegalStateException("the cluster was built without tls()");
        }
        return tls;
    }

    public List<KafkaNode> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * Starts one more node, broker only ({@code process.roles=broker}), that joins the running cluster under the
     * next free ID (the controllers stay the first nodes), and waits until it serves. It holds no partition until
     * one is created on or moved to it. {@code rack} is its {@code broker.rack}, or null.
     */
    public synchronized KafkaNode addBroker(String rack) {
        if (factory == null) {
            throw new IllegalStateException("a reopened cluster cannot grow: start a new one to add brokers");
        }
        int id = nodes.stream().mapToInt(KafkaNode::id).max().orElse(0) + 1;
        NodePorts ports = factory.allocatePorts();
        FaultProxy proxy = factory.proxied() ? FaultProxy.start(0, ports.plaintext()) : null;
        KafkaNode node = factory.node(id, proxy == null ? ports : ports.advertising(proxy.port()), proxy, false, rack);
        nodes.add(node);
        node.start();
        return node;
    }

    public KafkaNode node(int id) {
        return nodes.stream().filter(n -> n.id() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no broker " + id + "; ids are " + nodes.stream()
                        .map(n -> Integer.toString(n.id())).collect(Collectors.joining(","))));
    }

    /** An admin client on the internal listeners: it works while the client-facing proxies are cut. */
    public synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    nodes.stream().map(n -> "127.0.0.1:" + n.ports().internal()).collect(Collectors.joining(",")),
                    AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 60_000));
        }
        return admin;
    }

    /** Creates a topic with the cluster's default replication and waits until it exists. */
    public void createTopic(String name, int partitions) {
        createTopic(new NewTopic(name, java.util.Optional.of(partitions), java.util.Optional.empty()));
    }

    public void createTopic(NewTopic topic) {
        try {
            admin().createTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic.name(), e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("topic " + topic.name() + " not created within 60 s", e);
        }
        awaitLeaders(topic.name());
    }

    /** Waits until every partition's leader serves requests ({@link ServingLeaders}). */
    private void awaitLeaders(String topic) {
        ServingLeaders.await(admin(), topic, java.time.Duration.ofSeconds(60));
    }

    /** The folder with every node's data and log. */
    public Path dir() {
        return dir;
    }

    /** Controlled shutdown of every node; data stays. */
    public void stop() {
        closeAdmin();
        nodes.parallelStream().forEach(KafkaNode::stop);
    }

    /**
     * Ends the cluster. A cluster in a fresh folder of its own ({@link LocalDirs}) is killed and its data deleted
     * (such data is throwaway, and killing is faster than a controlled shutdown); a cluster in a caller's folder is
     * stopped gracefully and keeps its data.
     */
    @Override
    public void close() {
        closeAdmin();
        if (ownsDir) {
            nodes.parallelStream().forEach(KafkaNode::kill);
        } else {
            nodes.parallelStream().forEach(KafkaNode::stop);
        }
        nodes.forEach(KafkaNode::closeProxy);
        if (ownsDir) {
            for (KafkaNode node : nodes) {
                LocalDirs.deleteTree(node.dir().resolve("data"));
            }
        }
    }

    private synchronized void closeAdmin() {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    private static int port(NodePorts ports, Listener listener) {
        int port = switch (listener) {
            case PLAINTEXT -> ports.advertised();
            case SSL -> ports.ssl();
            case SASL -> ports.sasl();
        };
        if (port < 0) {
            throw new IllegalStateException("the cluster has no " + listener + " listener; enable it on the builder");
        }
        return port;
    }

    private void createScramUser() {
        try {
            admin().alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(SCRAM_USER,
                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), scramPassword))).all()
                    .get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot create the SCRAM user", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        awaitScramLogin();
    }

    /** Credentials reach every broker through the metadata log shortly after the controller accepts them. */
    private void awaitScramLogin() {
        Map<String, Object> props = new HashMap<>(clientProperties(Listener.SASL));
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 4_000);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try (Admin probe = Admin.create(props)) {
                probe.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("a SCRAM login still fails 30 s after creating the user", e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Builder: one node, PLAINTEXT only, in a fresh folder ({@link LocalDirs#newDir}), unless told otherwise. */
    public static final class Builder {
        private int nodeCount = 1;
        private boolean tls;
        private boolean scram;
        private boolean proxied;
        private Path dir;
        private String name = "kafka";
        private List<String> jvmOptions = TEST_JVM_OPTIONS;
        private List<String> racks = List.of();
        private final Map<String, String> overrides = new LinkedHashMap<>();

        private Builder() {
        }

        /** How many nodes (1 or 3 are the useful values; 3 gives replication factor 3 and min ISR 2). */
        public Builder nodes(int count) {
            if (count < 1 || count > 9) {
                throw new IllegalArgumentException("nodes must be 1..9, not " + count);
            }
            this.nodeCount = count;
            return this;
        }

        /** Adds an SSL listener with a self-signed certificate generated now. */
        public Builder tls() {
            this.tls = true;
            return this;
        }

        /** Adds a SASL/SCRAM-SHA-256 listener and a user ({@link #scramUser()}) with a random password. */
        public Builder scram() {
            this.scram = true;
            return this;
        }

        /** Puts a {@link FaultProxy} in front of each node's PLAINTEXT listener; the nodes advertise the proxy. */
        public Builder proxied() {
            this.proxied = true;
            return this;
        }

        /** Keeps data and logs in {@code dir} (kept on close) instead of a fresh folder. */
        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        /** The {@code broker.rack} of nodes 1, 2, ... in order (the default: no racks). */
        public Builder racks(String... racks) {
            this.racks = List.of(racks);
            return this;
        }

        /** A broker setting that overrides the test defaults, e.g. {@code log.retention.check.interval.ms}. */
        public Builder brokerProperty(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /** Starts every node and waits until all serve; on failure, the message holds the failing log's tail. */
        public KafkaCluster start() {
            boolean ownsDir = dir == null;
            Path root = ownsDir ? LocalDirs.newDir(name) : LocalDirs.createDirectories(dir);
            TlsMaterial material = tls ? TlsMaterial.generate(root.resolve("tls")) : null;
            String password = scram ? "scram-" + Long.toHexString(Double.doubleToLongBits(Math.random())) : null;

            if (racks.size() > nodeCount) {
                throw new IllegalArgumentException(racks.size() + " racks for " + nodeCount + " nodes");
            }
            List<NodePorts> ports = new ArrayList<>();
            List<FaultProxy> proxies = new ArrayList<>();
            for (int i = 0; i < nodeCount; i++) {
                NodePorts p = NodePorts.allocate(tls, scram);
                FaultProxy proxy = proxied ? FaultProxy.start(0, p.plaintext()) : null;
                proxies.add(proxy);
                ports.add(proxy == null ? p : p.advertising(proxy.port()));
            }
            String voters = java.util.stream.IntStream.range(0, nodeCount)
                    .mapToObj(i -> (i + 1) + "@127.0.0.1:" + ports.get(i).controller())
                    .collect(Collectors.joining(","));

            // each cluster its own ID, as real ones have: a mirror tells clusters apart by it
            String clusterId = org.apache.kafka.common.Uuid.randomUuid().toString();
            NodeFactory factory = new NodeFactory(root, name, clusterId, voters, nodeCount, material, scram, proxied,
                    jvmOptions, overrides);
            List<KafkaNode> nodes = new ArrayList<>();
            for (int i = 0; i < nodeCount; i++) {
                nodes.add(factory.node(i + 1, ports.get(i), proxies.get(i), true, i < racks.size() ? racks.get(i) : null));
            }
            KafkaCluster cluster = new KafkaCluster(nodes, factory, material, password, root, ownsDir);
            cluster.launch(scram);
            return cluster;
        }
    }

    /**
     * Starts again, and waits until it serves, a one-node PLAINTEXT cluster that an earlier {@code
     * builder().dir(dir).start()} left in {@code dir} (stopped or killed): the same data, cluster ID and ports, so
     * that what was configured against it (a pipeline file's bootstrap servers) works again. Closing it stops it
     * gracefully and keeps the data. It cannot grow ({@link #addBroker}).
     *
     * @throws IllegalStateException when {@code dir} holds no such cluster, or it does not start
     */
    public static KafkaCluster reopen(Path dir, String name, List<String> jvmOptions) {
        Path nodeDir = dir.resolve("node-1");
        Path config = nodeDir.resolve("server.properties");
        if (!java.nio.file.Files.isRegularFile(config) || !java.nio.file.Files.isDirectory(nodeDir.resolve("data"))) {
            throw new IllegalStateException("no Kafka node's data and settings in " + dir + " (expected "
                    + config + " and a data folder beside it)");
        }
        if (java.nio.file.Files.isDirectory(dir.resolve("node-2"))) {
            throw new IllegalStateException(dir + " holds a cluster of more than one node; only one node reopens");
        }
        NodePorts ports = BrokerProperties.ports(config);
        KafkaNode node = new KafkaNode(1, ports, nodeDir, NodeFactory.jvm(name, 1, nodeDir, config, jvmOptions), null);
        KafkaCluster cluster = new KafkaCluster(List.of(node), null, null, null, dir, false);
        cluster.launch(false);
        return cluster;
    }

    /** Launches every node and waits until all serve; on failure, ends the cluster and throws. */
    private void launch(boolean scram) {
        try {
            nodes.forEach(KafkaNode::launch);
            nodes.forEach(KafkaNode::awaitReady);
            if (scram) {
                createScramUser();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Names of the nodes currently running, for diagnostics. */
    public Set<Integer> runningNodes() {
        return nodes.stream().filter(KafkaNode::isRunning).map(KafkaNode::id).collect(Collectors.toSet());
    }
}
