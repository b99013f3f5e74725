package io.sluice.producer.input;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Arguments become a stable list of inputs (an exactly-once import's position is an index in it), and a changed file
 * is told from the one an import was reading.
 */
class InputsTest {

    @Test
    void theFilesAnImportSentAreFoundAmongOthersAsTheyLieThere() throws Exception {
        Path dir = TestDirs.newDir("inputs-sent");
        List<Input> files = new java.util.ArrayList<>();
        for (String name : List.of("day-1.txt", "day-2.txt", "day-3.txt", "day-4.txt")) {
            files.add(Input.file(Files.writeString(dir.resolve(name), name + "\n")));
        }
        List<Input> earlier = files.subList(1, 3); // day-2 and day-3, before day-1 and day-4 were there
        String reading = ImportPosition.startOf(1, FileIdentity.of(earlier.get(1).path())).metadata(earlier);
        assertEquals(List.of(1, 2), ImportPosition.sentAmong(reading, files),
                "day-2 done and day-3 being read: files 2 and 3 of the four");
        String complete = ImportPosition.complete(2).metadata(earlier);
        assertEquals(List.of(1, 2), ImportPosition.sentAmong(complete, files));
        String started = ImportPosition.startOf(0, FileIdentity.of(earlier.get(0).path())).metadata(earlier);
        assertEquals(List.of(1), ImportPosition.sentAmong(started, files),
                "the file being read counts as sent: some of its lines may be");
        // some of the files it sent, among others: a rotated folder (day-2 gone, day-4 added), or one of them alone
        assertEquals(List.of(1), ImportPosition.sentAmong(reading, List.of(files.get(0), files.get(2), files.get(3))),
                "day-3 (being read) is the second of these");
        assertEquals(List.of(0), ImportPosition.sentAmong(complete, List.of(files.get(1))), "day-2 alone");
        assertEquals(List.of(), ImportPosition.sentAmong(complete, List.of(files.get(0), files.get(3))));
        assertTrue(ImportPosition.sentAmong("something else", files).isEmpty());
        // a position of version 2 (before 2026-12-03) names its files as a whole: found where all lie in order
        String[] v3 = reading.split("\\|", 8);
        String v2 = String.join("|", "sluice-produce2", v3[1], v3[2], v3[3], v3[4], v3[5], v3[7]);
        assertEquals(List.of(1, 2), ImportPosition.sentAmong(v2, files));
        assertEquals(List.of(), ImportPosition.sentAmong(v2, List.of(files.get(0), files.get(2), files.get(3))));
        assertEquals(1, ImportPosition.resume(0, v2, earlier, "old").file(), "and it resumes as before");
    }

    /** The position of an import of many files with a long path fits the broker's 4,096 bytes of offset metadata. */
    @Test
    void thePositionOfManyFilesFitsTheBrokersMetadataLimit() {
        String folder = "/data/" + "x".repeat(1_200) + "/";
        List<Input> many = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            many.add(Input.file(Path.of(folder + "part-" + i + ".txt")));
        }
        String metadata = new ImportPosition(399, 7, 900, new FileIdentity(1_000_000_000_000L, "0123456789abcdef"))
                .metadata(many);
        assertTrue(metadata.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 4_096, metadata.length()
                + " bytes");
        assertEquals(ImportPosition.FILE_HASHES, ImportPosition.sentAmong(metadata, many).size(), "the last sent");
        assertEquals(399, ImportPosition.sentAmong(metadata, many).get(ImportPosition.FILE_HASHES - 1));
    }

    @Test
    void aFileTwoArgumentsNameIsRefusedInWords() throws Exception {
        Path dir = TestDirs.newDir("inputs-twice");
        Files.writeString(dir.resolve("a.txt"), "a\n");
        Files.writeString(dir.resolve("b.txt"), "b\n");
        IllegalArgumentException both = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Inputs.expand(List.of(dir.toString(), dir.resolve("*.txt").toString())));
        assertEquals(dir.resolve("a.txt") + " is named twice, by " + dir + " and by " + dir.resolve("*.txt") + ": each "
                + "line would be sent twice. Name each file once", both.getMessage());
        IllegalArgumentException again = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Inputs.expand(List.of(dir.resolve("b.txt").toString(), dir.resolve("b.txt").toString())));
        assertTrue(again.getMessage().contains("by the argument " + dir.resolve("b.txt") + " given twice"),
                again.getMessage());
    }

    @Test
    void theHashesOfTheLeadingArgumentsEndWithTheHashOfThemAll() {
        List<String> args = List.of("in/day-1.txt", "in/day-2.txt", "in/day-3.txt");
        List<String> prefixes = Inputs.prefixHashes(args);
        assertEquals(3, prefixes.size());
        assertEquals(Inputs.argumentsHash(args.subList(0, 1)), prefixes.get(0));
        assertEquals(Inputs.argumentsHash(args.subList(0, 2)), prefixes.get(1), "the run before the third file");
        assertEquals(Inputs.argumentsHash(args), prefixes.get(2));
        assertEquals(1, Inputs.prefixHashes(List.of()).size(), "no argument: one name still");
    }

    @Test
    void foldersAndGlobsExpandSortedInTheOrderOfTheArguments() throws Exception {
        Path dir = TestDirs.newDir("inputs");
        Files.createDirectories(dir.resolve("b/sub"));
        for (String name : List.of("b/sub/z.jsonl", "b/a.jsonl", "b/.hidden", "c.txt", "d.jsonl", "e.jsonl")) {
            Files.writeString(dir.resolve(name), name + "\n");
        }
        List<Input> inputs = Inputs.expand(List.of(dir.resolve("c.txt").toString(), dir.resolve("b").toString(),
                dir + "/*.jsonl"));
        assertEquals(List.of("c.txt", "b/a.jsonl", "b/sub/z.jsonl", "d.jsonl", "e.jsonl"),
                inputs.stream().map(i -> dir.relativize(i.path()).toString()).toList());
        assertEquals(List.of(Input.stdin()), Inputs.expand(List.of()));
        assertEquals(List.of(Input.stdin()), Inputs.expand(List.of("-")));
    }

    /**
     * Java's glob needs a folder where {@code **}{@code /} stands, so the documented {@code data/**}{@code /*.jsonl}
     * left out the files directly in {@code data/} without a word; and only hidden names at the top were left out.
     */
    @Test
    void aGlobstarMatchesNoFolderTooAndHiddenFoldersAreLeftOutAtEveryDepth() throws Exception {
        Path dir = TestDirs.newDir("inputs-globstar");
        for (String name : List.of("a.jsonl", "x/b.jsonl", "x/y/c.jsonl", "x/y/c.txt", ".h/d.jsonl", "x/.h/e.jsonl",
                "x/y/.f.jsonl")) {
            Files.createDirectories(dir.resolve(name).getParent());
            Files.writeString(dir.resolve(name), name + "\n");
        }
        List<String> expected = List.of("a.jsonl", "x/b.jsonl", "x/y/c.jsonl");
        assertEquals(expected, relative(dir, Inputs.expand(List.of(dir + "/**/*.jsonl"))));
        assertEquals(List.of("x/y/c.jsonl"), relative(dir, Inputs.expand(List.of(dir + "/x/**/y/**/*.jsonl"))),
                "each **/ may match no folder, and two of them independently");
        assertEquals(List.of("a.jsonl", "x/b.jsonl", "x/y/c.jsonl", "x/y/c.txt"),
                relative(dir, Inputs.expand(List.of(dir.toString()))));
    }

    private static List<String> relative(Path dir, List<Input> inputs) {
        return inputs.stream().map(i -> dir.relativize(i.path()).toString()).toList();
    }

    @Test
    void argumentsThatNameNothingAreRefusedInWords() throws Exception {
        Path dir = TestDirs.newDir("inputs-none");
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> Inputs.expand(List.of(dir.resolve("nope.txt").toString())));
        assertTrue(missing.getMessage().startsWith("no such file or folder: "), missing.getMessage());
        IllegalArgumentException noMatch = assertThrows(IllegalArgumentException.class,
                () -> Inputs.expand(List.of(dir + "/*.gz")));
        assertTrue(noMatch.getMessage().startsWith("no file matches "), noMatch.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Inputs.expand(List.of("-", dir.toString())));
    }

    @Test
    void aCommittedPositionResumesOnlyOnTheSameInputsAndAnUnchangedFile() throws Exception {
        Path dir = TestDirs.newDir("inputs-resume");
        Path a = Files.writeString(dir.resolve("a.txt"), "1\n2\n3\n");
        Path b = Files.writeString(dir.resolve("b.txt"), "4\n5\n");
        List<Input> inputs = List.of(Input.file(a), Input.file(b));
        ImportPosition atLine2OfB = ImportPosition.startOf(1, FileIdentity.of(b))
                .after(new Origin(b.toString(), 1, 0, 2));
        ImportPosition resumed = ImportPosition.resume(atLine2OfB.offset(), atLine2OfB.metadata(inputs), inputs, "n");
        assertEquals(atLine2OfB, resumed);

        IllegalStateException otherInputs = assertThrows(IllegalStateException.class, () -> ImportPosition.resume(
                2, atLine2OfB.metadata(inputs), List.of(Input.file(b)), "n"));
        assertTrue(otherInputs.getMessage().startsWith("import n had done 1 file(s) (it was reading '" + b
                + "', file 2), and the first 2 of these 1 are not those: a file was added before the one being "
                + "read, or one done was removed or renamed"), otherInputs.getMessage());
        Path other = Files.write(dir.resolve("b-copy.txt"), Files.readAllBytes(b));
        assertThrows(IllegalStateException.class, () -> ImportPosition.resume(2, atLine2OfB.metadata(inputs),
                List.of(Input.file(a), Input.file(other)), "n"), "the file being read is pinned by its path too");

        Files.writeString(b, "4\n5\n6\n");
        IllegalStateException changed = assertThrows(IllegalStateException.class, () -> ImportPosition.resume(
                2, atLine2OfB.metadata(inputs), inputs, "n"));
        assertTrue(changed.getMessage().contains(b + " is not the file that import n was reading (4 bytes"),
                changed.getMessage());

        ImportPosition done = ImportPosition.complete(2);
        assertTrue(ImportPosition.resume(0, done.metadata(inputs), inputs, "n").isComplete(inputs));
    }

    /**
     * Files added to an import's folder after the file it was reading are its to go on with, also once it was
     * complete; one added before that file, or a file done that is gone, is refused: the files done would differ. The
     * first version pinned the whole list, so a file added anywhere made a rerun another import, sending all again.
     */
    @Test
    void filesAddedAfterTheOneBeingReadAreTakenOnAndOneAddedBeforeIsRefused() throws Exception {
        Path dir = TestDirs.newDir("inputs-grow");
        Path b = Files.writeString(dir.resolve("b.txt"), "1\n2\n");
        Path c = Files.writeString(dir.resolve("c.txt"), "3\n");
        List<Input> before = List.of(Input.file(b), Input.file(c));
        ImportPosition inC = ImportPosition.startOf(1, FileIdentity.of(c));
        Path d = Files.writeString(dir.resolve("d.txt"), "4\n");
        List<Input> grown = List.of(Input.file(b), Input.file(c), Input.file(d));
        assertEquals(inC, ImportPosition.resume(0, inC.metadata(before), grown, "n"), "d comes after c: taken on");

        ImportPosition complete = ImportPosition.complete(2);
        ImportPosition next = ImportPosition.resume(0, complete.metadata(before), grown, "n");
        assertEquals(ImportPosition.startOf(2, FileIdentity.of(d)), next, "a complete import goes on with d");

        // the last file done grew, then files were added: going on with them would leave its new lines out
        ImportPosition completeWithLast = ImportPosition.complete(2, FileIdentity.of(c));
        Files.writeString(c, "3\n3b\n");
        IllegalStateException grew = assertThrows(IllegalStateException.class,
                () -> ImportPosition.resume(0, completeWithLast.metadata(before), grown, "n"));
        assertTrue(grew.getMessage().startsWith(c + " changed since import n read it to its end"), grew.getMessage());
        // also after a rerun that found the import complete and sent nothing: it commits the position it resumed
        ImportPosition rerun = ImportPosition.resume(0, completeWithLast.metadata(before), before, "n");
        assertTrue(rerun.isComplete(before));
        IllegalStateException grewThenRerun = assertThrows(IllegalStateException.class,
                () -> ImportPosition.resume(0, rerun.metadata(before), grown, "n"));
        assertTrue(grewThenRerun.getMessage().startsWith(c + " changed since import n read it to its end"),
                grewThenRerun.getMessage());
        Files.writeString(c, "3\n");

        Path a = Files.writeString(dir.resolve("a.txt"), "0\n");
        List<Input> earlier = List.of(Input.file(a), Input.file(b), Input.file(c), Input.file(d));
        for (ImportPosition at : List.of(inC, complete)) {
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> ImportPosition.resume(0, at.metadata(before), earlier, "n"));
            assertTrue(refused.getMessage().contains("a file was added before the one being read, or one done was "
                    + "removed or renamed"), refused.getMessage());
        }
    }

    @Test
    void anImportIsNamedAfterItsArgumentsAsAbsolutePathsNotAfterWhatTheyHoldNow() {
        String relative = Inputs.argumentsHash(List.of("logs", "extra/*.gz"));
        assertEquals(relative, Inputs.argumentsHash(List.of(Path.of("logs").toAbsolutePath().toString(),
                Path.of("extra/./*.gz").toAbsolutePath().toString())));
        assertNotEquals(relative, Inputs.argumentsHash(List.of("logs")));
        assertNotEquals(relative, Inputs.argumentsHash(List.of("extra/*.gz", "logs")), "the order counts");
    }
}
