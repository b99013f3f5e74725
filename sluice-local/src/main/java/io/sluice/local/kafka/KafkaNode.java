package io.sluice.local.kafka;

import io.sluice.local.net.FaultProxy;
import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One Kafka server (broker and controller in one process) of a {@link KafkaCluster}: stop it gracefully, kill it
 * with SIGKILL, freeze it, and start it again on the same data and ports.
 *
 * <p>Threading: the start/stop methods are synchronized; do not call them from several threads at once expecting a
 * particular interleaving.
 */
public final class KafkaNode {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private final int id;
    private final NodePorts ports;
    private final Path dir;
    private final ChildJvm jvm;
    private final FaultProxy proxy;
    private ChildProcess process;

    KafkaNode(int id, NodePorts ports, Path dir, ChildJvm jvm, FaultProxy proxy) {
        this.id = id;
        this.ports = ports;
        this.dir = dir;
        this.jvm = jvm;
        this.proxy = proxy;
    }

    public int id() {
        return id;
    }

    /** Launches the process without waiting; {@link #awaitReady()} waits. */
    synchronized void launch() {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("broker " + id + " is already running");
        }
        process = jvm.start();
    }

    synchronized void awaitReady() {
        process.awaitLogLine(line -> line.contains("Kafka Server started"), START_TIMEOUT);
    }

    /** Starts a stopped or killed node again, on the same data and ports, and waits until it serves. */
    public synchronized void start() {
        launch();
        awaitReady();
    }

    /** Controlled shutdown (SIGTERM): the broker hands over leadership and closes its logs cleanly. */
    public synchronized void stop() {
        if (process != null && process.isAlive()) {
            process.stop(STOP_GRACE);
        }
    }

    /** {@code kill -9}: no controlled shutdown, no flush; unflushed data survives only in the page cache. */
    public synchronized void kill() {
        if (process != null && process.isAlive()) {
            process.kill();
        }
    }

    /** SIGSTOP: the broker keeps its sockets open but answers nothing. */
    public synchronized void freeze() {
        process.freeze();
    }

    public synchronized void thaw() {
        process.thaw();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** The running broker's process ID, for measuring what it spends (a benchmark reads its CPU time). */
    public synchronized long pid() {
        if (!isRunning()) {
            throw new IllegalStateException("broker " + id + " is not running");
        }
        return process.pid();
    }

    /** The fault proxy in front of this node's PLAINTEXT listener, if the cluster was built {@code proxied()}. */
    public FaultProxy proxy() {
        if (proxy == null) {
            throw new IllegalStateException("the cluster was built without proxied(): no fault proxy in front of broker " + id);
        }
        return proxy;
    }

    public NodePorts ports() {
        return ports;
    }

    public Path dir() {
        return dir;
    }

    public Path logFile() {
        return jvm.logFile();
    }

    /** The last lines of this broker's log, for failure messages. */
    public synchronized String logTail() {
        return process == null ? "(never started)" : process.tail();
    }

    void closeProxy() {
        if (proxy != null) {
            proxy.close();
        }
    }
}
