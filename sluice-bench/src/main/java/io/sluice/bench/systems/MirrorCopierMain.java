package io.sluice.bench.systems;

import io.sluice.bench.BenchMain;
import io.sluice.core.Health;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import io.sluice.mirror.copy.TopicNaming;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;

/**
 * One copier of the mirror benchmark that runs in Java, in a JVM of its own: {@code MirrorCopierMain <system>
 * <source bootstrap> <topic> <target bootstrap> <target topic prefix> <partitions> <group>}. It copies the topic to
 * its end offsets (Sluice also the offsets of the source consumer group {@code <group>}, whose last sync ends before
 * the copier says it copied), prints {@code COPIED <json>}, and then waits to be stopped: the benchmark measures it from outside (the
 * copies a reader of the target sees, and this process's CPU time), and a process that exited could no longer be
 * asked for its CPU time. On a failure it prints it and exits with status 1.
 */
public final class MirrorCopierMain {

    private static final Duration TIMEOUT = Duration.ofMinutes(40);

    private MirrorCopierMain() {
    }

    public static void main(String[] args) throws Exception {
        String system = args[0];
        String source = args[1];
        String topic = args[2];
        String target = args[3];
        String prefix = args[4];
        int partitions = Integer.parseInt(args[5]);
        String group = args[6];
        if (Boolean.getBoolean(BenchMain.WARM_PROPERTY)) {
            warmUp(system, source, topic, target, prefix, partitions);
        }
        MeasuredFromOutside.runThenWait("COPIED", "copied", () -> copy(system, source, topic, target, prefix,
                partitions, group));
    }

    private static long copy(String system, String source, String topic, String target, String prefix,
            int partitions, String group) throws Exception {
        return switch (system) {
            case "plain-copier" -> PlainCopier.run(source, topic, target, prefix + topic, partitions);
            case "sluice" -> sluice(source, topic, target, prefix, group, MirrorDelivery.EXACTLY_ONCE);
            case "sluice-alo" -> sluice(source, topic, target, prefix, group, MirrorDelivery.AT_LEAST_ONCE);
            default -> throw new IllegalArgumentException("unknown mirror system " + system);
        };
    }

    /**
     * {@code bench/run --warm}: the same copy once, into a topic of its own (deleted after it), no group translated,
     * so that the measured copy runs compiled code; the measurement starts at the measured topic's first record.
     */
    private static void warmUp(String system, String source, String topic, String target, String prefix,
            int partitions) throws Exception {
        String warmPrefix = "warm-" + prefix;
        long start = System.nanoTime();
        long copied = copy(system, source, topic, target, warmPrefix, partitions, null);
        try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, target))) {
            admin.deleteTopics(List.of(warmPrefix + topic)).all().get(60, TimeUnit.SECONDS);
        }
        System.err.printf(Locale.ROOT, "[warm] %s copied %,d records in %.1f s before the measured copy%n", system,
                copied, (System.nanoTime() - start) / 1e9);
    }

    /** Sluice's mirror, bounded by the end offsets at its start, with its defaults otherwise. */
    private static long sluice(String source, String topic, String target, String prefix, String group,
            MirrorDelivery delivery) {
        try (Mirror mirror = Mirror.start(config(source, topic, target, prefix, group, delivery))) {
            return awaitEnd(mirror);
        }
    }

    /**
     * Sluice's mirror of {@code topic} to {@code prefix}+{@code topic}, bounded by the end offsets at its start, with
     * its defaults otherwise; {@code group} null translates no consumer group.
     */
    static MirrorConfig config(String source, String topic, String target, String prefix, String group,
            MirrorDelivery delivery) {
        MirrorConfig.Builder config = MirrorConfig.builder()
                .name(SystemMain.group("mirror"))
                .sourceProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, source)
                .targetProperty(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, target)
                .topics(topic)
                .naming(TopicNaming.prefix(prefix))
                .delivery(delivery)
                .untilEnd(true);
        if (group != null) {
            config.groups(Pattern.compile(Pattern.quote(group)));
        }
        return config.build();
    }

    /** Waits for a bounded mirror to reach its end offsets; what it copied, or why it did not end well. */
    static long awaitEnd(Mirror mirror) {
        if (!mirror.awaitTermination(TIMEOUT)) {
            throw new IllegalStateException("the mirror did not reach the end offsets within " + TIMEOUT);
        }
        if (mirror.engine().health() != Health.STOPPED) {
            throw new IllegalStateException("the mirror ended " + mirror.engine().health() + ": "
                    + mirror.engine().failure().map(Throwable::toString).orElse("no cause"),
                    mirror.engine().failure().orElse(null));
        }
        return mirror.counts().copied();
    }
}
