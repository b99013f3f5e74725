package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.cli.Cli;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.config.ConfigException;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A file given to the command of another kind is named for what it is, with the command that runs it. */
class FileKindTest {

    private static final String PIPELINE = """
            source:
              bootstrap-servers: localhost:9092
              topics: [clicks]
              group: archiver
            sink:
              location: /tmp/archive
            """;
    private static final String MIRROR = """
            source:
              bootstrap-servers: localhost:9092
              topics: [orders]
            target:
              bootstrap-servers: localhost:9093
            mirror:
              name: orders
            """;
    private static final String MERGE = """
            merge:
              name: orders
              order-by: value.ts
            input:
              west: {bootstrap-servers: "w:9092", topic: orders}
            target:
              bootstrap-servers: localhost:9093
              topic: merged
            """;

    @Test
    void eachKindIsToldApartByASectionOnlyItHas() {
        assertEquals(FileKind.PIPELINE, FileKind.of(PIPELINE).orElseThrow());
        assertEquals(FileKind.MIRROR, FileKind.of(MIRROR).orElseThrow());
        assertEquals(FileKind.MERGE, FileKind.of(MERGE).orElseThrow(), "a merge has a target too");
        assertTrue(FileKind.of("source:\n  topics: [a]\n").isEmpty(), "too little to tell: the keys' errors say it");
    }

    @Test
    void aFileOfAnotherKindSaysWhatItIsAndWhichCommandRunsIt() throws Exception {
        ConfigException e = assertThrows(ConfigException.class, () -> FileKind.MIRROR.expect("p.yaml", PIPELINE));
        assertEquals("p.yaml: this is a pipeline file (it has a top-level 'sink' section): run it with `sluice run "
                + "p.yaml`; `sluice mirror` takes a mirror file, as examples/mirror.yaml shows", e.getMessage());
        FileKind.MIRROR.expect("m.yaml", MIRROR);
        // its own section and a stray one of another kind: the unknown key says it, not "this is a mirror file"
        FileKind.PIPELINE.expect("p.yaml", PIPELINE + "target:\n  bootstrap-servers: b:9092\n");

        Path dir = TestDirs.newDir("file-kind");
        Path mirror = Files.writeString(dir.resolve("mirror.yaml"), MIRROR);
        Cli.Result run = Cli.run("run", mirror.toString());
        assertEquals(ExitStatus.USAGE, run.status(), run.err());
        assertTrue(run.err().contains("this is a mirror file (it has a top-level 'mirror' section): run it with "
                + "`sluice mirror " + mirror + "`"), run.err());
        assertTrue(!run.err().contains("unknown key"), "one line, not a page of key errors: " + run.err());
        Path merge = Files.writeString(dir.resolve("merge.yaml"), MERGE);
        Cli.Result mirrored = Cli.run("mirror", merge.toString());
        assertEquals(ExitStatus.USAGE, mirrored.status(), mirrored.err());
        assertTrue(mirrored.err().contains("this is a merge file"), mirrored.err());
    }

    /**
     * A mirror file without its target section was taken for a pipeline: {@code validate} said to run it with {@code
     * sluice mirror}, which then said the target was missing. And one naming neither topics nor a pattern was told to
     * give one of them "not both".
     */
    @Test
    void aMirrorFileMissingASectionOrItsTopicsIsToldWhatIsMissing() throws Exception {
        Path dir = TestDirs.newDir("file-kind-missing");
        Path noTarget = Files.writeString(dir.resolve("no-target.yaml"),
                MIRROR.replace("target:\n  bootstrap-servers: localhost:9093\n", ""));
        Cli.Result validate = Cli.run("validate", noTarget.toString());
        assertEquals(ExitStatus.USAGE, validate.status(), validate.err());
        assertTrue(validate.err().contains("missing section 'target'"), validate.err());
        assertTrue(!validate.err().contains("run it with"), validate.err());

        Path noTopics = Files.writeString(dir.resolve("no-topics.yaml"), MIRROR.replace("  topics: [orders]\n", ""));
        Cli.Result topics = Cli.run("validate", noTopics.toString());
        assertEquals(ExitStatus.USAGE, topics.status(), topics.err());
        assertTrue(topics.err().contains("source: give the topics to copy (topics: [a, b]) or a pattern "
                + "(pattern: 'clicks-.*')"), topics.err());
        assertTrue(!topics.err().contains("not both"), topics.err());
    }
}
