package io.sluice.local.kafka;

import io.sluice.local.LocalDirs;
import io.sluice.local.net.Ports;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.local.process.ServerRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.Uuid;

/**
 * Formatted KRaft storage without running the format tool for every broker: the tool runs once per output folder
 * (about a second in a child JVM) to produce the bootstrap metadata checkpoint, and each broker's log directory
 * gets a copy of it plus its own {@code meta.properties}. With a static controller quorum the formatted files name
 * no ports, so one template serves every broker and cluster.
 *
 * <p>Threading: {@link #prepare} is safe for concurrent use; the template is made under this class's lock.
 */
final class KraftStorage {

    /** The ID the template is formatted with; the bootstrap checkpoint does not hold it, meta.properties does. */
    private static final String TEMPLATE_CLUSTER_ID = "c2x1aWNlLXRlc3Qta2l0AA";
    private static final String CHECKPOINT = "bootstrap.checkpoint";

    private KraftStorage() {
    }

    /**
     * Makes {@code logDir} a formatted log directory of node {@code nodeId} of cluster {@code clusterId}, unless it
     * already is one.
     */
    static void prepare(Path logDir, int nodeId, String clusterId) {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return; // a restart on the same data
        }
        Path template = template();
        try {
            Files.createDirectories(logDir);
            Files.copy(template.resolve(CHECKPOINT), logDir.resolve(CHECKPOINT), StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(logDir.resolve("meta.properties"),
                    "version=1\n"
                            + "cluster.id=" + clusterId + "\n"
                            + "node.id=" + nodeId + "\n"
                            + "directory.id=" + Uuid.randomUuid() + "\n",
                    StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare KRaft storage in " + logDir, e);
        }
    }

    private static synchronized Path template() {
        Path template = LocalDirs.root().resolve("kraft-template");
        if (Files.exists(template.resolve(CHECKPOINT))) {
            return template;
        }
        Path work = LocalDirs.newDir("kraft-format");
        Path config = work.resolve("server.properties");
        Path data = work.resolve("data");
        try {
            Files.writeString(config, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + Ports.free(),
                    "listeners=PLAINTEXT://127.0.0.1:" + Ports.free() + ",CONTROLLER://127.0.0.1:" + Ports.free(),
                    "controller.listener.names=CONTROLLER",
                    "log.dirs=" + data) + "\n", StandardCharsets.UTF_8);
            ChildProcess format = ChildJvm.builder("kafka-storage-format")
                    .runtime(ServerRuntime.KAFKA)
                    .jvmOptions(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"))
                    .mainClass("kafka.tools.StorageTool")
                    .args("format", "-t", TEMPLATE_CLUSTER_ID, "-c", config.toString())
                    .workDir(work)
                    .build()
                    .start();
            format.awaitLogLine(line -> line.startsWith("Formatting"), Duration.ofSeconds(60));
            if (format.waitForExit() != 0 || !Files.exists(data.resolve(CHECKPOINT))) {
                throw new IllegalStateException("formatting KRaft storage failed:\n" + format.tail());
            }
            Path staged = work.resolve("template");
            Files.createDirectories(staged);
            Files.copy(data.resolve(CHECKPOINT), staged.resolve(CHECKPOINT));
            try {
                Files.move(staged, template, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(staged, template);
            }
            LocalDirs.deleteTree(work);
            return template;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot format KRaft storage in " + work, e);
        }
    }
}
