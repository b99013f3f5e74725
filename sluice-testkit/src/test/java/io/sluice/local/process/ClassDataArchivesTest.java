package io.sluice.local.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A classpath's first two starts record the classes their children load and have them dumped into an archive, and a
 * start once the archive is there maps those classes from it instead of reading them from the jars.
 */
class ClassDataArchivesTest {

    private static final String JAR_CLASS = "org.apache.kafka.common.utils.Utils";
    /** Loaded by the second start only: the archive holds what both loaded. */
    private static final String SECOND_JAR_CLASS = "org.apache.kafka.common.config.ConfigDef";

    @Test
    void theThirdStartOfAClasspathLoadsItsJarClassesFromTheArchive() throws Exception {
        Path dir = TestDirs.newDir("class-data");
        ClassDataArchives archives = new ClassDataArchives(dir.resolve("archives"));

        String first = run(archives, dir, "first", JAR_CLASS);
        assertFalse(first.contains(JAR_CLASS + " source: shared objects file"), first);
        try (Stream<Path> files = Files.list(dir.resolve("archives"))) {
            Path classList = files.filter(p -> p.toString().endsWith(".classlist")).findFirst()
                    .orElseThrow(() -> new AssertionError("the first start recorded no class list"));
            assertTrue(Files.readString(classList).contains(JAR_CLASS.replace('.', '/')), "recorded the jar's class");
        }

        String second = run(archives, dir, "second", SECOND_JAR_CLASS); // has the archive dumped, runs without it
        assertFalse(second.contains(SECOND_JAR_CLASS + " source: shared objects file"), second);
        Path archive = awaitArchive(dir.resolve("archives"));

        String third = run(archives, dir, "third", JAR_CLASS, SECOND_JAR_CLASS);
        for (String loaded : List.of(JAR_CLASS, SECOND_JAR_CLASS)) {
            assertTrue(third.contains(loaded + " source: shared objects file"), "mapped from " + archive + ":\n"
                    + third.lines().filter(l -> l.contains(loaded)).toList());
        }
    }

    @Test
    void aRebuiltJarGetsAnArchiveOfItsOwn() throws Exception {
        Path dir = TestDirs.newDir("class-data-name");
        Path jar = Files.write(dir.resolve("a.jar"), new byte[] {1, 2, 3});
        String before = ClassDataArchives.name(List.of(jar));
        assertEquals(before, ClassDataArchives.name(List.of(jar)));
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        assertNotEquals(before, ClassDataArchives.name(List.of(jar)));
    }

    /** Starts the child, waits for it to end, and returns what its JVM logged of the classes it loaded. */
    private static String run(ClassDataArchives archives, Path dir, String name, String... classes)
            throws Exception {
        ChildProcess child = ChildJvm.builder(name)
                .classpathOfThisJvm()
                .classData(archives)
                .jvmOptions(List.of("-Xmx64m", "-Xlog:class+load=info"))
                .mainClass(JarClassLoadingChild.class.getName())
                .args(classes)
                .workDir(dir)
                .build()
                .start();
        int status = child.exitStatusWithin(Duration.ofSeconds(60)).orElseThrow(
                () -> new AssertionError(name + " did not end in 60 s:\n" + child.tail()));
        String log = Files.readString(child.logFile());
        assertEquals(0, status, log);
        assertTrue(log.contains("LOADED"), log);
        return log;
    }

    /** The dump runs in the background after the second start; it takes seconds. */
    private static Path awaitArchive(Path folder) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < deadline) {
            try (Stream<Path> files = Files.list(folder)) {
                var archive = files.filter(p -> p.toString().endsWith(".jsa")).findFirst();
                if (archive.isPresent()) {
                    return archive.get();
                }
            }
            Thread.sleep(100); // polling a file another process writes: there is no event to wait on
        }
        try (Stream<Path> logs = Files.list(folder)) {
            throw new AssertionError("no archive after 90 s: " + logs.filter(p -> p.toString().endsWith(".log"))
                    .map(p -> {
                        try {
                            return Files.readString(p);
                        } catch (java.io.IOException e) {
                            return e.toString();
                        }
                    }).toList());
        }
    }
}
