package io.sluice.local.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * How to start a child process that is a command rather than a class of ours, for example the {@code sluice} script
 * as users run it: its words, folder and environment. It is registered like a {@link ChildJvm}'s children, so a run
 * that ends stops it, and its output goes to one log file that {@link ChildProcess} reads. Without a JVM of ours
 * around it, it does not halt by itself when this JVM is killed; the next run's reaper stops it then.
 *
 * <p>Immutable; {@link #start()} may be called again.
 */
public final class ChildCommand {

    private final String name;
    private final List<String> command;
    private final Path workDir;
    private final Map<String, String> environment;

    /**
     * @param environment set on top of this JVM's environment
     */
    public ChildCommand(String name, List<String> command, Path workDir, Map<String, String> environment) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("a child command needs a program to run");
        }
        this.name = name;
        this.command = List.copyOf(command);
        this.workDir = workDir;
        this.environment = Map.copyOf(environment);
    }

    /** Starts it; the log file ({@code <name>.log} in the folder) is appended to. */
    public ChildProcess start() {
        try {
            Files.createDirectories(workDir);
            return ChildProcess.launch(name, command, workDir, workDir.resolve(name + ".log"), environment);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + command.get(0) + ")", e);
        }
    }
}
