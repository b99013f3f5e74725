package io.sluice.bench;

import io.sluice.local.net.Ports;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.local.process.ServerRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * MirrorMaker 2 (connect-mirror 4.3.1) as a peer: its jars, which {@code bench/run} resolves with bench/mm2/pom.xml,
 * and its launch in dedicated mode in a JVM of its own, with the settings ../shared/kafka-to-kafka-notes.md measured
 * as a careful operator's. It copies until it is stopped (SIGTERM).
 */
final class MirrorMaker2 {

    /** Where bench/run wrote the classpath file; unset (or the file missing) when MirrorMaker 2 is not available. */
    static final String CLASSPATH_PROPERTY = "sluice.bench.mm2.classpath";

    private MirrorMaker2() {
    }

    /** MirrorMaker 2's jars, or why they are not there. */
    static Classpath classpath() {
        String file = System.getProperty(CLASSPATH_PROPERTY);
        if (file == null) {
            return new Classpath(List.of(), "no " + CLASSPATH_PROPERTY + " given (bench/run resolves it)");
        }
        try {
            if (!Files.exists(Path.of(file))) {
                return new Classpath(List.of(), file + " is missing: bench/run could not resolve connect-mirror "
                        + "(offline, and not in ~/.m2?); see bench/mm2/pom.xml");
            }
            List<Path> jars = Stream.of(Files.readString(Path.of(file), StandardCharsets.UTF_8).trim().split(":"))
                    .map(Path::of).toList();
            List<Path> gone = jars.stream().filter(jar -> !Files.exists(jar)).toList();
            return gone.isEmpty() ? new Classpath(jars, null)
                    : new Classpath(List.of(), gone.get(0) + " named in " + file + " is gone; remove the file and rerun");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @param missing why MirrorMaker 2 cannot run, or null when it can */
    record Classpath(List<Path> jars, String missing) {
        Optional<String> whyMissing() {
            return Optional.ofNullable(missing);
        }
    }

    /** Starts copying {@code topic} from {@code source} to {@code target}, exactly once or at least once. */
    static ChildProcess start(MirrorSystem system, String source, String topic, String target, List<Path> jars,
            List<String> jvmOptions, Path runDir) {
        Path config = runDir.resolve("mm2.properties");
        try {
            Files.createDirectories(runDir);
            Files.writeString(config, properties(system, source, topic, target).entrySet().stream()
                    .map(e -> e.getKey() + " = " + e.getValue()).collect(Collectors.joining("\n", "", "\n")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Path> classpath = new ArrayList<>(ServerRuntime.NONE.classpath()); // the test kit's watchdog main
        classpath.addAll(jars);
        return ChildJvm.builder(system.id())
                .classpath(classpath)
                .jvmOptions(jvmOptions)
                .systemProperty("log4j2.configurationFile", ServerRuntime.LOG4J2_CONFIG)
                .mainClass("org.apache.kafka.connect.mirror.MirrorMaker")
                .args(config.toString())
                .workDir(runDir)
                .build()
                .start();
    }

    static Map<String, String> properties(MirrorSystem system, String source, String topic, String target) {
        String src = MirrorSystem.MM2_SOURCE_ALIAS;
        String dst = "dst";
        Map<String, String> p = new LinkedHashMap<>();
        p.put("clusters", src + ", " + dst);
        p.put(src + ".bootstrap.servers", source);
        p.put(dst + ".bootstrap.servers", target);
        p.put(src + "->" + dst + ".enabled", "true");
        p.put(dst + "->" + src + ".enabled", "false");
        p.put("topics", topic);
        p.put("tasks.max", "4");
        for (String internal : List.of("replication.factor", "checkpoints.topic.replication.factor",
                "heartbeats.topic.replication.factor", "offset-syncs.topic.replication.factor",
                "offset.storage.replication.factor", "status.storage.replication.factor",
                "config.storage.replication.factor")) {
            p.put(internal, "1");
        }
        p.put("sync.group.offsets.enabled", "true");
        p.put("emit.checkpoints.interval.seconds", "5");
        p.put("sync.group.offsets.interval.seconds", "5");
        // per cluster: a top-level plugin.discovery does not reach the herders (start-up 16 s -> 6 s, the notes);
        // and top-level too: MirrorMaker's own plugin scan otherwise reflects over every jar first (5 s here)
        p.put("plugin.discovery", "service_load");
        p.put(src + ".plugin.discovery", "service_load");
        p.put(dst + ".plugin.discovery", "service_load");
        // without overrides MM2's producers send 16 KiB batches, one request in flight, idempotence off
        p.put(dst + ".producer.linger.ms", "10");
        p.put(dst + ".producer.batch.size", "262144");
        if (system == MirrorSystem.MM2_EOS) {
            p.put(dst + ".exactly.once.source.support", "enabled");
            p.put("dedicated.mode.enable.internal.rest", "true");
            p.put("listeners", "http://127.0.0.1:" + Ports.free());
            p.put(src + ".consumer.isolation.level", "read_committed");
        } else {
            p.put(dst + ".producer.enable.idempotence", "true");
            p.put(dst + ".producer.max.in.flight.requests.per.connection", "5");
        }
        return p;
    }
}
