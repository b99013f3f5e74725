package io.sluice.mirror.crash;

import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.mirror.Clusters;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * An exactly-once mirror of one topic in a child JVM, for the crash and zombie tests:
 * {@code MirrorChild <source bootstrap> <target bootstrap> <topic> <mirror name> <group instance ID>}. It copies until
 * it is stopped (SIGTERM closes the mirror through a shutdown hook, as the command does), halted at a crash point or
 * killed. Its group instance ID (static membership) lets the next instance with the same ID take its partitions at
 * once; a different ID has to wait for its session to expire.
 */
public final class MirrorChild {

    static final String READY = "SLUICE-READY";
    static final String ENDED = "SLUICE-ENDED ";

    private MirrorChild() {
    }

    public static void main(String[] args) {
        Mirror mirror = Mirror.start(config(plaintext(args[0]), plaintext(args[1]), args[2], args[3], args[4]).build());
        Runtime.getRuntime().addShutdownHook(new Thread(mirror::close, "close-mirror"));
        System.out.println(READY);
        System.out.flush();
        mirror.awaitTermination(Duration.ofDays(1));
        Health health = mirror.engine().health();
        System.out.println(ENDED + health + mirror.engine().failure().map(f -> " " + f).orElse(""));
        System.out.flush();
        System.exit(health == Health.STOPPED ? 0 : 1);
    }

    /** The mirror a child runs, and that a test runs in its own JVM to finish what a halted child left. */
    static MirrorConfig.Builder config(Map<String, Object> source, Map<String, Object> target, String topic,
            String name, String instanceId) {
        return Clusters.mirror(source, target, name, topic)
                .sourceProperty("group.instance.id", instanceId)
                .commitInterval(Duration.ofMillis(100));
    }

    /** Starts a child that mirrors {@code topic} and waits until its mirror runs. */
    static ChildProcess start(Clusters clusters, String topic, String name, String instanceId,
            List<String> jvmOptions) {
        ChildProcess child = ChildJvm.builder("mirror-" + instanceId)
                .classpathOfThisJvm()
                .jvmOptions(jvmOptions)
                .mainClass(MirrorChild.class.getName())
                .args(clusters.source().bootstrapServers(), clusters.target().bootstrapServers(), topic, name,
                        instanceId)
                .workDir(TestDirs.newDir("mirror-child-" + name))
                .build()
                .start();
        child.awaitLogLine(line -> line.startsWith(READY), Duration.ofSeconds(60));
        return child;
    }

    private static Map<String, Object> plaintext(String bootstrap) {
        return Map.of("bootstrap.servers", bootstrap, "security.protocol", "PLAINTEXT");
    }

    /** The settings of {@link Listener#PLAINTEXT} clients of {@code cluster}, as a child receives them. */
    static Map<String, Object> clientOf(KafkaCluster cluster) {
        return cluster.clientProperties(Listener.PLAINTEXT);
    }
}
