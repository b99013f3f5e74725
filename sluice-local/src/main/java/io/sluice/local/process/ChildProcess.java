package io.sluice.local.process;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A running child JVM: wait for a line in its log, stop it gracefully (SIGTERM), kill it (SIGKILL), or freeze and
 * thaw it (SIGSTOP / SIGCONT) to play a zombie.
 *
 * <p>Threading: safe for concurrent use; the state is the OS process.
 */
public final class ChildProcess {

    private static final int TAIL_LINES = 40;

    private final String name;
    private final Process process;
    private final Path logFile;
    private final long logOffset;

    ChildProcess(String name, Process process, Path logFile, long logOffset) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.logOffset = logOffset;
    }

    /**
     * Starts {@code command} in {@code workDir} with {@code environment} on top of this JVM's, its output and errors
     * appended to {@code logFile} after a line that marks this start, its standard input a pipe never written to, and
     * registers it ({@link ChildRegistry}).
     */
    static ChildProcess launch(String name, List<String> command, Path workDir, Path logFile,
            Map<String, String> environment) throws IOException {
        long logOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
        Files.writeString(logFile, "=== sluice-testkit: starting " + name + " ===\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                // stdin stays a pipe that we never write to: ChildMain halts when it closes
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().putAll(environment);
        Process process = builder.start();
        ChildRegistry.register(process, name);
        return new ChildProcess(name, process, logFile, logOffset);
    }

    public long pid() {
        return process.pid();
    }

    /** The process, alive or ended. */
    ProcessHandle handle() {
        return process.toHandle();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Path logFile() {
        return logFile;
    }

    /**
     * Waits until this start's log has a line that satisfies {@code ready}, and returns it.
     *
     * @throws IllegalStateException if the process exits first or the time runs out; the message holds the log's tail
     */
    public String awaitLogLine(Predicate<String> ready, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long position = logOffset;
        StringBuilder partial = new StringBuilder();
        while (true) {
            boolean alive = process.isAlive();
            try (RandomAccessFile in = new RandomAccessFile(logFile.toFile(), "r")) {
                if (in.length() > position) {
                    in.seek(position);
                    byte[] chunk = new byte[(int) Math.min(in.length() - position, 1 << 20)];
                    in.readFully(chunk);
                    position += chunk.length;
                    partial.append(new String(chunk, StandardCharsets.UTF_8));
                    int newline;
                    while ((newline = partial.indexOf("\n")) >= 0) {
                        String line = partial.substring(0, newline);
                        partial.delete(0, newline + 1);
                        if (ready.test(line)) {
                            return line;
                        }
                    }
                    continue;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (!alive) {
                throw new IllegalStateException(name + " exited with status " + process.exitValue()
                        + " before it was ready. Last lines of " + logFile + ":\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " was not ready within " + timeout
                        + ". Last lines of " + logFile + ":\n" + tail());
            }
            sleep(25);
        }
    }

    /** SIGTERM, then SIGKILL if it has not exited within {@code grace}. Returns the exit status. */
    public int stop(Duration grace) {
        // ProcessHandle.destroy only signals; Process.destroy would also close the child's stdin first, which the
        // child's watchdog reads as "parent gone" and halts on before its shutdown hooks finish
        process.toHandle().destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                System.err.println("[sluice-testkit] " + name + " did not stop within " + grace + "; killing it");
                return kill();
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return kill();
        }
    }

    /** SIGKILL, as {@code kill -9}: no shutdown hook runs, nothing is flushed. Returns the exit status. */
    public int kill() {
        process.destroyForcibly();
        return waitForExit();
    }

    /** Waits for the process to exit by itself and returns its status. */
    public int waitForExit() {
        while (true) {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + name, e);
            }
        }
    }

    /** The exit status if the process exits within {@code timeout}, else empty (it keeps running). */
    public java.util.OptionalInt exitStatusWithin(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)
                    ? java.util.OptionalInt.of(process.exitValue()) : java.util.OptionalInt.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + name, e);
        }
    }

    /** SIGSTOP: the process freezes, holding its sockets and leases, as a long GC pause or a hung VM would. */
    public void freeze() {
        signal("STOP");
    }

    /** SIGCONT: a frozen process resumes where it stopped. */
    public void thaw() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
                    .redirectErrorStream(true).start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed: "
                        + new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The last lines of the log, to put in failure messages. */
    public String tail() {
        try {
            // lenient decoding: a log may hold bytes that are not UTF-8
            List<String> lines = new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).lines().toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + logFile + ": " + e + ")";
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
