package io.sluice.local.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Class-data archives for child JVMs started again and again with one classpath, as crash tests start theirs: a JVM
 * that maps an archive of the classes it loads at start spends about half the CPU getting there (an archive child of
 * the crash tests here: 1.0 instead of 2.0 s), and a suite on two cores starts hundreds of children, several at once.
 *
 * <p>How: the first two starts of a classpath in this JVM record the classes their children load
 * ({@code -XX:DumpLoadedClassList}; two, since the Kafka storage tool's run and the broker's start share one); once
 * both children have ended (or run 30 s), a JVM dumps those classes into an archive in the background
 * ({@code java -Xshare:dump}), and every start after that maps it. Starts before the archive is ready run as without
 * it. An archive only speeds a start up, it never changes what the child does: one the JVM cannot use (another JDK, a
 * jar rebuilt since) is ignored by it, silently, and classes load from the jars as usual.
 *
 * <p>Java archives classes from jars only, and refuses a dump whose classpath holds a folder of classes; a child's
 * runtime classpath need only begin with the dump's. So with archives on, a child's jars come first and its folders
 * (a module's own classes and test classes) after them, unarchived: nothing the suite runs has a class or resource in
 * both.
 *
 * <p>Several JVMs (the modules of a parallel build) may share the folder: an archive is named by a hash of the JDK and
 * of its jars (path, size, time), written under a temporary name and moved into place, and the lock file one JVM
 * creates exclusively lets only that JVM dump it. A dump that failed leaves its lock and its log: that classpath's
 * children start without an archive until the folder is cleaned.
 *
 * <p>On only when the system property {@value #FOLDER_PROPERTY} names a folder, as the build sets it for tests: a
 * quick start's one broker would not earn its archive back.
 *
 * <p>Threading: thread-safe; {@link #launch} holds this object's lock, and each dump waits on its own daemon thread.
 */
public final class ClassDataArchives {

    /** The system property naming the folder of the archives; without it, children start as they always did. */
    public static final String FOLDER_PROPERTY = "sluice.child.class-data";

    private static final Optional<ClassDataArchives> FROM_PROPERTY =
            Optional.ofNullable(System.getProperty(FOLDER_PROPERTY)).filter(s -> !s.isBlank())
                    .map(s -> new ClassDataArchives(Path.of(s).toAbsolutePath()));

    /** The options that keep the JVM quiet about an archive it cannot use: the child's log is the test's evidence. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off", "-Xlog:class+path=off");

    /** How many starts record their classes for an archive: a tool's run and a server's start share a classpath. */
    private static final int RECORDED_STARTS = 2;
    /** How long the recording starts record at most before the dump: a child's start is over by then. */
    private static final Duration RECORDING = Duration.ofSeconds(30);

    private final Path folder;
    private final long pid = ProcessHandle.current().pid();
    /** Starts so far per archive name; guarded by this. */
    private final Map<String, Integer> starts = new HashMap<>();
    /** The starts recording the classes of each archive not yet dumped; guarded by this. */
    private final Map<String, List<Recording>> recordings = new HashMap<>();

    /** Archives in {@code folder}, made as children start; most callers want {@link #fromSystemProperty()}. */
    public ClassDataArchives(Path folder) {
        this.folder = folder.toAbsolutePath();
    }

    /** The archives of the folder the system property {@value #FOLDER_PROPERTY} names, if it names one. */
    public static Optional<ClassDataArchives> fromSystemProperty() {
        return FROM_PROPERTY;
    }

    /**
     * What one start of a child runs with: its classpath in the order to use, and JVM options to add; {@link #started}
     * tells the archives which process it became (the first start's, whose classes an archive is made of).
     */
    public static final class Launch {
        private final List<Path> classpath;
        private final List<String> jvmOptions;
        private final CompletableFuture<ProcessHandle> process;

        Launch(List<Path> classpath, List<String> jvmOptions, CompletableFuture<ProcessHandle> process) {
            this.classpath = List.copyOf(classpath);
            this.jvmOptions = List.copyOf(jvmOptions);
            this.process = process;
        }

        /** A start without archives: the classpath as given, no options. */
        public static Launch plain(List<Path> classpath) {
            return new Launch(classpath, List.of(), new CompletableFuture<>());
        }

        public List<Path> classpath() {
            return classpath;
        }

        public List<String> jvmOptions() {
            return jvmOptions;
        }

        /** The process this start became. */
        public void started(ProcessHandle child) {
            process.complete(child);
        }
    }

    /** The classpath (its jars first) and the options for the next start of a child whose classpath is {@code cp}. */
    public synchronized Launch launch(List<Path> cp) {
        List<Path> jars = cp.stream().filter(Files::isRegularFile).toList();
        if (jars.isEmpty()) {
            return Launch.plain(cp);
        }
        List<Path> ordered = new ArrayList<>(jars);
        cp.stream().filter(p -> !Files.isRegularFile(p)).forEach(ordered::add);
        String name = name(jars);
        Path archive = folder.resolve(name + ".jsa");
        if (Files.isRegularFile(archive)) {
            List<String> options = new ArrayList<>(QUIET);
            options.add("-XX:SharedArchiveFile=" + archive);
            return new Launch(ordered, options, new CompletableFuture<>());
        }
        int start = starts.merge(name, 1, Integer::sum);
        if (start > RECORDED_STARTS) {
            return new Launch(ordered, List.of(), new CompletableFuture<>());
        }
        createFolder();
        Recording recording = new Recording(folder.resolve(name + "-" + pid + "-" + start + ".classlist"),
                new CompletableFuture<>());
        recordings.computeIfAbsent(name, n -> new ArrayList<>()).add(recording);
        if (start == RECORDED_STARTS) {
            dumpInBackground(name, jars, archive, recordings.remove(name));
        }
        return new Launch(ordered, List.of("-XX:DumpLoadedClassList=" + recording.classList()), recording.process());
    }

    /** A start recording the classes its child loads into {@code classList}, and the process it became. */
    private record Recording(Path classList, CompletableFuture<ProcessHandle> process) {
    }

    /** The archive's name: the JDK and every jar's path, size and time, so a rebuilt jar gets an archive of its own. */
    static String name(List<Path> jars) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            StringBuilder what = new StringBuilder(System.getProperty("java.home")).append('\n')
                    .append(System.getProperty("java.vm.version")).append('\n');
            for (Path jar : jars) {
                what.append(jar.toAbsolutePath()).append(' ').append(Files.size(jar)).append(' ')
                        .append(Files.getLastModifiedTime(jar).toMillis()).append('\n');
            }
            return "classes-" + HexFormat.of().formatHex(digest.digest(
                    what.toString().getBytes(StandardCharsets.UTF_8)), 0, 8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a jar of a child's classpath", e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private void createFolder() {
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the folder of class-data archives " + folder, e);
        }
    }

    private void dumpInBackground(String name, List<Path> jars, Path archive, List<Recording> recorded) {
        try {
            Files.createFile(folder.resolve(name + ".lock"));
        } catch (FileAlreadyExistsException e) {
            return; // another JVM dumps it
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock a class-data archive in " + folder, e);
        }
        Thread dump = new Thread(() -> {
            long deadline = System.nanoTime() + RECORDING.toNanos();
            recorded.forEach(r -> awaitRecording(r.process(), deadline));
            dump(name, jars, recorded.stream().map(Recording::classList).toList(), archive);
        }, "class-data-dump-" + name);
        dump.setDaemon(true);
        dump.start();
    }

    /**
     * Waits until a recording start's child has ended, or until {@code deadline} (a broker lives as long as its test):
     * the second start often follows the first at once, when the first has loaded almost nothing yet.
     */
    private static void awaitRecording(CompletableFuture<ProcessHandle> recorder, long deadline) {
        try {
            ProcessHandle child = recorder.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            child.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // recorded long enough, or the start failed: what it recorded is what there is
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Dumps the classes the recording starts loaded so far (one may still run: its last line may be cut), each once,
     * into the archive.
     */
    private void dump(String name, List<Path> jars, List<Path> classLists, Path archive) {
        Path log = folder.resolve(name + ".dump.log");
        try {
            Set<String> classes = new LinkedHashSet<>();
            for (Path classList : classLists) {
                if (Files.exists(classList)) {
                    String recorded = Files.readString(classList, StandardCharsets.UTF_8);
                    recorded.substring(0, recorded.lastIndexOf('\n') + 1).lines()
                            .filter(line -> !line.startsWith("#")).forEach(classes::add);
                }
            }
            Path snapshot = Files.write(folder.resolve(name + ".classlist"), classes, StandardCharsets.UTF_8);
            Path args = Files.writeString(folder.resolve(name + ".args"), ChildJvm.classpathArgument(jars),
                    StandardCharsets.UTF_8);
            Path written = folder.resolve(name + ".jsa.tmp");
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:dump", "-Xmx1g", "-XX:SharedClassListFile=" + snapshot,
                    "-XX:SharedArchiveFile=" + written, "@" + args)
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (process.waitFor() == 0 && Files.isRegularFile(written)) {
                Files.move(written, archive, StandardCopyOption.ATOMIC_MOVE);
            } else {
                System.err.println("no class-data archive for child JVMs (" + log + "): they start without one");
            }
        } catch (IOException e) {
            System.err.println("no class-data archive for child JVMs (" + e.getMessage() + "): they start without one");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
