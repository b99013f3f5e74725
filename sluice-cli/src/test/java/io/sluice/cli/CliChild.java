package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code sluice} in a JVM of its own whose standard input the test writes (a test kit {@code ChildJvm} reads its own
 * standard input, to notice its parent's death), its output in a log file, and signals sent to it.
 *
 * <p>Threading: one test thread, and at most one writer thread on {@link #stdin}.
 */
public final class CliChild implements AutoCloseable {

    public static final List<String> JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private final Process process;
    private final Path log;

    private CliChild(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static CliChild start(Path dir, String... args) throws IOException {
        return start(dir, List.of(), args);
    }

    /** As {@link #start(Path, String...)}, with JVM options besides {@link #JVM} (crash or pause points). */
    public static CliChild start(Path dir, List<String> jvmOptions, String... args) throws IOException {
        Path argFile = dir.resolve("classpath.args");
        String classpath = System.getProperty("java.class.path").replace("\\", "\\\\");
        Files.writeString(argFile, "-cp \"" + classpath + "\"\n", StandardCharsets.UTF_8);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(JVM);
        command.addAll(jvmOptions);
        command.add("@" + argFile);
        command.add(Main.class.getName());
        command.addAll(List.of(args));
        Path log = dir.resolve(args.length == 0 ? "sluice.log" : args[0] + ".log");
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        return new CliChild(process, log);
    }

    public OutputStream stdin() {
        return process.getOutputStream();
    }

    /**
     * Writes {@code "<prefix>-<i>\n"} for i in [from, from + count) and flushes. A pipe holds only 64 KiB: when this
     * returns, the child has taken all but its pipe's and its reader's buffers' worth.
     */
    public void writeLines(String prefix, int from, int count) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            b.append(prefix).append('-').append(i).append('\n');
        }
        stdin().write(b.toString().getBytes(StandardCharsets.UTF_8));
        stdin().flush();
    }

    /** SIGTERM, without waiting (ProcessHandle.destroy only signals; Process.destroy would close standard input). */
    public void terminate() {
        process.toHandle().destroy();
    }

    /** Waits until the output has a line containing {@code text}. */
    public void awaitOutput(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!output().contains(text)) {
            assertTrue(process.isAlive(), () -> "exited before '" + text + "':\n" + output());
            assertTrue(System.nanoTime() < deadline, () -> "no '" + text + "' within " + timeout + ":\n" + output());
            Thread.sleep(25);
        }
    }

    /** The exit status; fails the test when the child has not exited within {@code timeout}. */
    public int exitStatus(Duration timeout) throws InterruptedException {
        assertTrue(process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS),
                () -> "still running after " + timeout + ":\n" + output());
        return process.exitValue();
    }

    public String output() {
        try {
            // lenient: a log line may hold bytes that are not UTF-8
            return Files.exists(log) ? new String(Files.readAllBytes(log), StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
