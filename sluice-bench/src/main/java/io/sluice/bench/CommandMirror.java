package io.sluice.bench;

import io.sluice.bench.systems.Distribution;
import io.sluice.bench.systems.SystemMain;
import io.sluice.local.process.ChildCommand;
import io.sluice.local.process.ChildProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Sluice's mirror as users run it: {@code ./sluice mirror mirror.yaml}, the shipped script and jar with their defaults
 * (the script's JVM options and class-data archive; the command's YAML, logging, progress line and the Prometheus
 * meters it always records), with a mirror file that names only the work: the two clusters, the topic, the target's
 * name for it and the group to translate, and the delivery (exactly once is the default). It runs until stopped (SIGTERM), as a mirror
 * does, so that its CPU time can be read while it lives (the script execs the JVM: one process).
 */
final class CommandMirror {

    private CommandMirror() {
    }

    /** @param delivery {@code mirror.delivery}: exactly-once or at-least-once */
    static ChildProcess start(String id, String source, String topic, String target, String prefix, String appGroup,
            String delivery, List<String> benchOptions, Path runDir) {
        Path file = runDir.resolve("mirror.yaml");
        String yaml = "source:\n"
                + "  bootstrap-servers: " + source + "\n"
                + "  topics: " + topic + "\n"
                + "target:\n"
                + "  bootstrap-servers: " + target + "\n"
                + "mirror:\n"
                + "  name: " + SystemMain.group("mirror") + "\n"
                + "  delivery: " + delivery + "\n"
                + "  topic-name: \"" + prefix + "{topic}\"\n"
                + "  groups: \"" + Pattern.quote(appGroup).replace("\\", "\\\\") + "\"\n";
        try {
            Files.createDirectories(runDir);
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ChildCommand(id, List.of(Distribution.script().toString(), "mirror", file.toString()), runDir,
                scriptEnvironment(benchOptions)).start();
    }

    /**
     * What the benchmark adds to observe (a flight recording with --profile), and the SLUICE_JAVA_OPTS given to the
     * benchmark (A/B runs).
     */
    private static Map<String, String> scriptEnvironment(List<String> benchOptions) {
        String observe = String.join(" ", benchOptions.stream()
                .filter(o -> o.startsWith("-XX:StartFlightRecording")).toList());
        return Distribution.environment(observe + " " + System.getenv().getOrDefault("SLUICE_JAVA_OPTS", ""));
    }
}
