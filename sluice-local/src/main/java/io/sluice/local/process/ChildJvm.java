package io.sluice.local.process;

import io.sluice.testkit.child.ChildMain;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * How to start a Java child process: its classpath, main class, arguments and JVM options. Immutable; {@link #start()}
 * may be called again to restart the same process description (for example a broker on the same data).
 *
 * <p>Every child runs under {@link ChildMain}, so it halts when this JVM dies, and its standard output and error go
 * to one log file that {@link ChildProcess} reads. With {@link ClassDataArchives} on (the tests), a classpath started
 * again and again maps a class-data archive and its jars come before its folders.
 */
public final class ChildJvm {

    private final String name;
    private final List<Path> classpath;
    private final String mainClass;
    private final List<String> args;
    private final List<String> jvmOptions;
    private final Map<String, String> systemProperties;
    private final Map<String, String> environment;
    private final Path workDir;
    private final Path logFile;
    private final long fileSizeLimitKib;
    private final Optional<ClassDataArchives> classData;

    private ChildJvm(Builder b) {
        this.name = Objects.requireNonNull(b.name, "name");
        this.classpath = List.copyOf(b.classpath);
        this.mainClass = Objects.requireNonNull(b.mainClass, "mainClass");
        this.args = List.copyOf(b.args);
        this.jvmOptions = List.copyOf(b.jvmOptions);
        this.systemProperties = Map.copyOf(b.systemProperties);
        this.environment = Map.copyOf(b.environment);
        this.workDir = Objects.requireNonNull(b.workDir, "workDir");
        this.logFile = b.logFile != null ? b.logFile : workDir.resolve(name + ".log");
        this.fileSizeLimitKib = b.fileSizeLimitKib;
        this.classData = b.classData;
        if (classpath.isEmpty()) {
            throw new IllegalArgumentException("a child JVM needs a classpath");
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public Path logFile() {
        return logFile;
    }

    /** Starts the process; the log file is appended to, so the logs of every restart stay in one place. */
    public ChildProcess start() {
        try {
            Files.createDirectories(workDir);
            ClassDataArchives.Launch launch = classData.map(archives -> archives.launch(classpath))
                    .orElseGet(() -> ClassDataArchives.Launch.plain(classpath));
            Path argFile = workDir.resolve(name + ".args");
            // an argument file keeps a 90-jar classpath out of the command line (and out of `ps` listings)
            Files.writeString(argFile, classpathArgument(launch.classpath()), StandardCharsets.UTF_8);
            List<String> command = new ArrayList<>();
            if (fileSizeLimitKib > 0) {
                // the shell sets the limit and becomes the JVM (same PID); the JVM ignores SIGXFSZ, so writes past
                // the limit fail with EFBIG ("File too large"), as on a full disk
                command.addAll(List.of("bash", "-c", "ulimit -f " + fileSizeLimitKib + " && exec \"$@\"", name));
            }
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(jvmOptions);
            command.addAll(launch.jvmOptions());
            systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.add("-Dsluice.testkit.child=" + name);
            command.add("@" + argFile);
            command.add(ChildMain.class.getName());
            command.add(mainClass);
            command.addAll(args);
            ChildProcess child = ChildProcess.launch(name, command, workDir, logFile, environment);
            launch.started(child.handle());
            return child;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start child JVM " + name, e);
        }
    }

    /** The classpath as a line of a JVM argument file ({@code java @file}). */
    static String classpathArgument(List<Path> classpath) {
        return "-cp " + quote(classpath.stream().map(Path::toString)
                .collect(Collectors.joining(java.io.File.pathSeparator))) + "\n";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** Builder; validation happens in {@link #build()}. */
    public static final class Builder {
        private final String name;
        private final List<Path> classpath = new ArrayList<>();
        private String mainClass;
        private final List<String> args = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private final Map<String, String> systemProperties = new LinkedHashMap<>();
        private final Map<String, String> environment = new LinkedHashMap<>();
        private Path workDir;
        private Path logFile;
        private long fileSizeLimitKib;
        private Optional<ClassDataArchives> classData = ClassDataArchives.fromSystemProperty();

        private Builder(String name) {
            this.name = name;
        }

        public Builder runtime(ServerRuntime runtime) {
            classpath.addAll(runtime.classpath());
            return this;
        }

        /** The classpath of the running JVM: a child that runs the code under test (and the test's own classes). */
        public Builder classpathOfThisJvm() {
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                classpath.add(Path.of(entry).toAbsolutePath()); // the child runs in another folder
            }
            return this;
        }

        public Builder classpath(List<Path> entries) {
            classpath.addAll(entries);
            return this;
        }

        public Builder mainClass(String mainClass) {
            this.mainClass = mainClass;
            return this;
        }

        public Builder args(String... values) {
            args.addAll(List.of(values));
            return this;
        }

        public Builder jvmOptions(List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        public Builder systemProperty(String key, String value) {
            systemProperties.put(key, value);
            return this;
        }

        /** An environment variable of the child, beside those it inherits. */
        public Builder environment(String key, String value) {
            environment.put(key, value);
            return this;
        }

        public Builder workDir(Path dir) {
            this.workDir = dir;
            return this;
        }

        public Builder logFile(Path file) {
            this.logFile = file;
            return this;
        }

        /**
         * Runs the child under {@code ulimit -f}: no file it writes may grow past {@code kibibytes}, so writes beyond
         * fail as on a full disk. Its log counts too: keep the limit well above what the child logs.
         */
        public Builder fileSizeLimit(long kibibytes) {
            if (kibibytes < 1) {
                throw new IllegalArgumentException("the file size limit must be at least 1 KiB, not " + kibibytes);
            }
            this.fileSizeLimitKib = kibibytes;
            return this;
        }

        /** The class-data archives this child's starts use; by default those the system property names, if any. */
        public Builder classData(ClassDataArchives archives) {
            this.classData = Optional.of(archives);
            return this;
        }

        public ChildJvm build() {
            return new ChildJvm(this);
        }
    }
}
