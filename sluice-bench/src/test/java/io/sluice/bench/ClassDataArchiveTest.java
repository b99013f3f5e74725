package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.bench.systems.Distribution;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code sluice} script's class-data archive (issue 13: the command's start), on the shipped jar, which the build
 * made before this module's tests: made once per jar by a training run, mapped by every start after, made again when
 * the jar changes, left out on request, and not asked again of a JVM that cannot make one.
 */
class ClassDataArchiveTest {

    private static final String MAIN_FROM_ARCHIVE = "io.sluice.cli.Main source: shared objects file";
    private static final String PICOCLI_FROM_ARCHIVE = "picocli.CommandLine source: shared objects file";

    @Test
    void theScriptArchivesTheCommandsClassesOnceAndEveryStartMapsThem() throws Exception {
        Path jar = Distribution.jar();
        Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis())); // as after a build

        Run first = run(Map.of(), "--version");
        assertEquals(0, first.status(), first.output());
        List<Path> archives = archives(jar);
        assertEquals(1, archives.size(), "one archive for this jar and JDK: " + archives);
        Path archive = archives.get(0);
        assertTrue(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0,
                "made after the jar");
        FileTime made = Files.getLastModifiedTime(archive);

        Run mapped = run(Map.of("SLUICE_JAVA_OPTS", "-Xlog:class+load"), "--version");
        assertEquals(0, mapped.status(), mapped.output());
        assertTrue(mapped.output().contains(MAIN_FROM_ARCHIVE), "the command's classes come from the archive:\n"
                + tail(mapped.output()));
        assertTrue(mapped.output().contains(PICOCLI_FROM_ARCHIVE), "picocli's (Java 5 class files) too:\n"
                + mapped.output().lines().filter(l -> l.contains("picocli.CommandLine ")).toList());
        assertEquals(made, Files.getLastModifiedTime(archive), "made once, not at every start");

        Run without = run(Map.of("SLUICE_NO_CDS", "1", "SLUICE_JAVA_OPTS", "-Xlog:class+load"), "--version");
        assertEquals(0, without.status(), without.output());
        assertTrue(without.output().contains("io.sluice.cli.Main source: file:"), tail(without.output()));
    }

    /**
     * A JVM that cannot make an archive (here a JDK whose java refuses the option, as one that is not HotSpot does) is
     * asked once per jar, not at every start, and the command starts without one.
     */
    @Test
    void aJvmThatCannotMakeAnArchiveIsAskedOncePerJar(@TempDir Path dir) throws Exception {
        Path java = dir.resolve("jdk/bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, "#!/bin/bash\n"
                + "for a in \"$@\"; do [[ \"$a\" == -Xshare:dump ]] && exit 1; done\n"
                + "exec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' \"$@\"\n");
        assertTrue(java.toFile().setExecutable(true));
        Map<String, String> withIt = Map.of("JAVA_HOME", java.getParent().getParent().toString());
        List<Path> before = markers();
        try {
            Run first = run(withIt, "--version");
            assertEquals(0, first.status(), first.output());
            assertTrue(first.output().contains("preparing faster starts"), first.output());
            Run second = run(withIt, "--version");
            assertEquals(0, second.status(), second.output());
            assertFalse(second.output().contains("preparing faster starts"), "asked once: " + second.output());
            assertTrue(second.output().startsWith("sluice "), second.output());
        } finally {
            for (Path marker : markers()) {
                if (!before.contains(marker)) {
                    Files.delete(marker);
                }
            }
        }
    }

    private static List<Path> markers() throws IOException {
        try (Stream<Path> files = Files.list(Distribution.jar().getParent())) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jsa.none")).toList();
        }
    }

    private record Run(int status, String output) {
    }

    private static Run run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of(Distribution.script().toString()),
                Stream.of(args)).toList()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("SLUICE_NO_BUILD", "1"); // the build made the jar; sources may be newer in a checkout
        builder.environment().remove("SLUICE_JAVA_OPTS");
        builder.environment().remove("SLUICE_NO_CDS");
        builder.environment().putAll(environment);
        Process process = builder.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the command ended");
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static List<Path> archives(Path jar) throws IOException {
        String stem = jar.getFileName().toString().replace(".jar", "-");
        try (Stream<Path> files = Files.list(jar.getParent())) {
            return files.filter(f -> f.getFileName().toString().startsWith(stem)
                    && f.getFileName().toString().endsWith(".jsa")).toList();
        }
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    }
}
