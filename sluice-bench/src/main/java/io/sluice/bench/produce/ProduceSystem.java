package io.sluice.bench.produce;

import io.sluice.bench.systems.Distribution;
import io.sluice.local.process.ServerRuntime;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The systems of the produce benchmark and the command line of each: every one sends the lines of the same file to a
 * fresh topic with the same producer settings, those {@code sluice produce} uses by default ({@link #SETTINGS}).
 */
public enum ProduceSystem {
    /** Kafka's ProducerPerformance: a Java producer and nothing else, the ceiling for any Java tool. */
    PRODUCER_PERF,
    /** {@code ./sluice produce FILE}, as a user runs it: no producer setting given. */
    SLUICE,
    /** {@code ./sluice produce --exactly-once FILE}: transactions that commit the position in the file. */
    SLUICE_EOS,
    /** kafka-tools 4.3.1's console producer, the file on its standard input. */
    CONSOLE_PRODUCER,
    /** kcat 1.7 (librdkafka), {@code -l FILE}. */
    KCAT;

    /**
     * What {@code sluice produce} sets by default (docs/produce.md): acks=all, idempotence, at most 5 requests in
     * flight, linger 10 ms, batch 128 KiB, no compression. The peers are given the same, so that the difference is the
     * tool.
     */
    static final Map<String, String> SETTINGS = settings();

    private static Map<String, String> settings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("acks", "all");
        s.put("enable.idempotence", "true");
        s.put("max.in.flight.requests.per.connection", "5");
        s.put("linger.ms", "10");
        s.put("batch.size", Integer.toString(128 * 1024));
        s.put("compression.type", "none");
        return s;
    }

    public static ProduceSystem named(String name) {
        return Arrays.stream(values()).filter(s -> s.id().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no produce system " + name));
    }

    /** The name on the command line and in the report. */
    public String id() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the topic should hold each line of the file: ProducerPerformance sends lines drawn at random. */
    boolean sendsEachLineOnce() {
        return this != PRODUCER_PERF;
    }

    /** Sluice's runs fail on a missing line, and the exactly-once run on a doubled one too; a peer's are reported. */
    boolean isSluice() {
        return this == SLUICE || this == SLUICE_EOS;
    }

    boolean duplicatesFail() {
        return this == SLUICE_EOS;
    }

    /** The console producer reads the file from its standard input; the others open it. */
    boolean readsStandardInput() {
        return this == CONSOLE_PRODUCER;
    }

    /** The command that sends {@code input} to {@code topic}; a Java system's JVM runs with {@code jvmOptions}. */
    List<String> command(String bootstrap, String topic, ProduceInput input, List<String> jvmOptions, Path runDir) {
        List<String> c = new ArrayList<>();
        switch (this) {
            case SLUICE, SLUICE_EOS -> {
                // the shipped script and jar (its class-data archive too); the JVM options are the peers' (below)
                c.addAll(List.of(Distribution.script().toString(), "produce", "-b", bootstrap, "-t", topic));
                if (this == SLUICE_EOS) {
                    c.add("--exactly-once");
                }
                c.add(input.lines().toString());
            }
            case PRODUCER_PERF -> {
                c.addAll(java(jvmOptions, runDir, ServerRuntime.KAFKA.classpath(),
                        "org.apache.kafka.tools.ProducerPerformance"));
                c.addAll(List.of("--topic", topic, "--num-records", Integer.toString(input.records()),
                        "--payload-file", input.sample().toString(), "--throughput", "-1", "--producer-props",
                        "bootstrap.servers=" + bootstrap));
                SETTINGS.forEach((k, v) -> c.add(k + "=" + v));
            }
            case CONSOLE_PRODUCER -> {
                c.addAll(java(jvmOptions, runDir, ServerRuntime.KAFKA.classpath(),
                        "org.apache.kafka.tools.ConsoleProducer"));
                c.addAll(List.of("--bootstrap-server", bootstrap, "--topic", topic));
                SETTINGS.forEach((k, v) -> c.addAll(List.of("--producer-property", k + "=" + v)));
            }
            case KCAT -> {
                c.addAll(List.of("kcat", "-P", "-b", bootstrap, "-t", topic, "-l", input.lines().toString()));
                SETTINGS.forEach((k, v) -> c.addAll(List.of("-X", k + "=" + v)));
            }
        }
        return c;
    }

    private List<String> java(List<String> jvmOptions, Path runDir, List<Path> classpath, String mainClass) {
        Path argFile = runDir.resolve(id() + ".args");
        try {
            // an argument file keeps a 150-jar classpath out of the command line (and out of `ps` listings)
            Files.writeString(argFile, "-cp \"" + classpath.stream().map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator)) + "\"\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> c = new ArrayList<>();
        c.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        c.addAll(jvmOptions);
        c.add("@" + argFile);
        c.add(mainClass);
        return c;
    }

    /**
     * What the command runs with beside its words: Sluice's runs get the peers' JVM options through the script
     * ({@code SLUICE_JAVA_OPTS}), the jar the benchmark built as it is, and the benchmark's JDK; the others nothing.
     */
    Map<String, String> environment(List<String> jvmOptions) {
        if (!isSluice()) {
            return Map.of();
        }
        return Distribution.environment(String.join(" ", jvmOptions));
    }
}
