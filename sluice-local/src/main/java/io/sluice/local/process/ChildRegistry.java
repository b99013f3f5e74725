package io.sluice.local.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Makes sure no child process outlives the run, on three lines of defence: (1) each child halts by itself when its
 * parent's pipe closes ({@link io.sluice.testkit.child.ChildMain}); (2) a shutdown hook stops the children of a JVM
 * that exits normally; (3) a PID file per child lets the next run kill leftovers of a run whose JVM was killed
 * while a child was hung (for example stopped with SIGSTOP, so it could not notice its parent's death).
 *
 * <p>Threading: safe for concurrent use; all state is in concurrent collections and the file system.
 */
public final class ChildRegistry {

    private static final Path PID_DIR = Path.of(System.getProperty("java.io.tmpdir"), "sluice-testkit-children");
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();
    private static final Object INIT = new Object();
    private static volatile boolean initialized;

    private ChildRegistry() {
    }

    static void register(Process process, String name) {
        initOnce();
        LIVE.add(process);
        ProcessHandle self = ProcessHandle.current();
        String record = process.pid() + " " + startMillis(process.toHandle()).orElse(0L) + " "
                + self.pid() + " " + startMillis(self).orElse(0L) + " " + name + "\n";
        try {
            Files.createDirectories(PID_DIR);
            Files.writeString(pidFile(process.pid()), record, StandardCharsets.UTF_8);
        } catch (IOException e) {
            // the pipe watchdog still applies; losing the third line of defence is not worth failing a test for
            System.err.println("[sluice-testkit] cannot write pid file for " + name + ": " + e);
        }
        process.onExit().thenRun(() -> unregister(process));
    }

    private static void unregister(Process process) {
        LIVE.remove(process);
        try {
            Files.deleteIfExists(pidFile(process.pid()));
        } catch (IOException e) {
            // a stale pid file is harmless: the reaper checks the process start time before killing
        }
    }

    /**
     * Kills children whose parent JVM is gone. A PID is only trusted together with its start time, so a recycled
     * PID of an unrelated process is never killed.
     *
     * @return how many leftover processes were killed
     */
    public static int reapOrphans() {
        int killed = 0;
        if (!Files.isDirectory(PID_DIR)) {
            return 0;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(PID_DIR, "*.pid")) {
            for (Path file : files) {
                killed += reap(file);
            }
        } catch (IOException e) {
            System.err.println("[sluice-testkit] cannot scan " + PID_DIR + ": " + e);
        }
        return killed;
    }

    private static int reap(Path file) throws IOException {
        String[] f;
        try {
            f = Files.readString(file, StandardCharsets.UTF_8).trim().split(" ", 5);
        } catch (IOException e) {
            return 0; // removed concurrently by its owner
        }
        if (f.length < 4) {
            Files.deleteIfExists(file);
            return 0;
        }
        long childPid = Long.parseLong(f[0]);
        long childStart = Long.parseLong(f[1]);
        long parentPid = Long.parseLong(f[2]);
        long parentStart = Long.parseLong(f[3]);
        if (isRunning(parentPid, parentStart)) {
            return 0; // another live JVM's child
        }
        int killed = 0;
        Optional<ProcessHandle> child = ProcessHandle.of(childPid);
        if (child.isPresent() && isRunning(childPid, childStart)) {
            System.err.println("[sluice-testkit] killing leftover child " + childPid + " (" + (f.length > 4 ? f[4] : "?")
                    + ") of dead parent " + parentPid);
            child.get().destroyForcibly();
            // a stopped process only dies once it is continued; SIGKILL is delivered regardless, but wait for it
            child.get().onExit().completeOnTimeout(null, 10, TimeUnit.SECONDS).join();
            killed = 1;
        }
        Files.deleteIfExists(file);
        return killed;
    }

    private static boolean isRunning(long pid, long startMillis) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .flatMap(ChildRegistry::startMillis)
                .map(start -> start == startMillis)
                .orElse(false);
    }

    private static Optional<Long> startMillis(ProcessHandle handle) {
        return handle.info().startInstant().map(Instant::toEpochMilli);
    }

    private static Path pidFile(long pid) {
        return PID_DIR.resolve(pid + ".pid");
    }

    private static void initOnce() {
        if (initialized) {
            return;
        }
        synchronized (INIT) {
            if (initialized) {
                return;
            }
            reapOrphans();
            Runtime.getRuntime().addShutdownHook(new Thread(ChildRegistry::stopAll, "sluice-testkit-children-stop"));
            initialized = true;
        }
    }

    /** Last resort at JVM exit: ask every live child to stop, then kill what is left. */
    private static void stopAll() {
        LIVE.forEach(Process::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (Process p : LIVE) {
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !p.waitFor(left, TimeUnit.NANOSECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
