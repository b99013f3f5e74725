package io.sluice.testkit.hdfs;

import io.sluice.local.LocalDirs;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.local.process.ServerRuntime;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A real HDFS (one NameNode and one DataNode, Hadoop's MiniDFSCluster from the shaded client) in a child JVM.
 * Clients use the Hadoop FileSystem API with {@link #uri()}; {@link #stop()} and {@link #start()} bring it down and
 * back on the same port and data, {@link #stopDataNode()} and {@link #startDataNode()} its DataNode alone.
 *
 * <p>Threading: lifecycle methods are synchronized.
 */
public final class HdfsServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final String READY = "SLUICE-READY ";

    private final Path dir;
    private ChildProcess process;
    private URI uri;
    /** The DataNode's stops and starts asked of this process so far. */
    private int dataNodeEvents;

    private HdfsServer(Path dir) {
        this.dir = dir;
    }

    public static HdfsServer start(String name) {
        HdfsServer server = new HdfsServer(LocalDirs.newDir(name));
        server.start();
        return server;
    }

    /** Starts, or restarts on the same NameNode port and data, and waits until the DataNode is up. */
    public synchronized void start() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("HDFS is already running");
        }
        int port = uri == null ? 0 : uri.getPort();
        dataNodeEvents = 0;
        process = ChildJvm.builder("hdfs")
                .runtime(ServerRuntime.HDFS)
                .jvmOptions(List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
                .systemProperty("log4j2.configurationFile", ServerRuntime.LOG4J2_CONFIG)
                .mainClass("io.sluice.testkit.child.MiniHdfsMain")
                .args(dir.resolve("data").toString(), Integer.toString(port))
                .workDir(dir)
                .build()
                .start();
        String line = process.awaitLogLine(l -> l.startsWith(READY), START_TIMEOUT);
        uri = URI.create(line.substring(READY.length()).trim());
    }

    /**
     * Stops the DataNode alone (the NameNode answers, and still counts it as running until its heartbeats are missed
     * for ten minutes): writes and reads of blocks fail, as in a DataNode's restart. Waits until it is down.
     */
    public synchronized void stopDataNode() {
        dataNode("stop", "stopped");
    }

    /** Starts the DataNode stopped by {@link #stopDataNode} again on its ports, and waits until it is up. */
    public synchronized void startDataNode() {
        dataNode("start", "started");
    }

    private void dataNode(String ask, String done) {
        String event = "SLUICE-DATANODE " + ++dataNodeEvents + " ";
        Path control = dir.resolve("datanode." + ask);
        try {
            Files.createFile(control);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String said;
        try {
            said = process.awaitLogLine(l -> l.equals(event + done) || l.startsWith(event + "failed"), START_TIMEOUT);
        } catch (RuntimeException e) {
            // not done in time: the child may still act on the file later, but no later call is to be taken for it
            deleteQuietly(control);
            throw e;
        }
        if (!said.equals(event + done)) {
            throw new IllegalStateException("the test HDFS could not " + ask + " its DataNode: " + said);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a leftover control file: the next call's createFile says so
        }
    }

    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.stop(Duration.ofSeconds(10));
        }
    }

    /** {@code hdfs://127.0.0.1:<port>}. */
    public synchronized URI uri() {
        return uri;
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            process.kill();
        }
        LocalDirs.deleteTree(dir.resolve("data"));
    }
}
