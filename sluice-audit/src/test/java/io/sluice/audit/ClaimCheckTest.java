package io.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.sink.Manifest;
import io.sluice.storage.sink.ManifestFile;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Files without Kafka coordinates are checked through their manifests' spans and record counts. */
class ClaimCheckTest {

    private static final String ID = "AAAAAAAAAAAAAAAAAAAAAA";

    @Test
    void countsThatMatchTheOpenOffsetsCoverThemAndOthersStayMissingWithANote() throws Exception {
        Path root = TestDirs.newDir("claims");
        LocalBackend storage = new LocalBackend(root);
        // two raw files interleaved by category over 0..19 (10 records each), and one over 20..29 that lost a record
        for (String path : List.of("t/a/t+0+0.bin", "t/b/t+0+1.bin", "t/a/t+0+20.bin", "t/a/t+0+30.bin")) {
            write(root, path, "x");
        }
        manifest(storage, 20, new ManifestFile("t/a/t+0+0.bin", "s1", 10, 1, 0, 18),
                new ManifestFile("t/b/t+0+1.bin", "s2", 10, 1, 1, 19));
        manifest(storage, 30, new ManifestFile("t/a/t+0+20.bin", "s3", 9, 1, 20, 29));
        OffsetSet expected = new OffsetSet();
        expected.addRange(0, 39);
        FoundPartition found = new FoundPartition();

        ClaimCheck check = new ClaimCheck(storage);
        check.apply(0, List.of(claim("t/a/t+0+0.bin"), claim("t/b/t+0+1.bin"), claim("t/a/t+0+20.bin"),
                claim("t/a/t+0+30.bin")), new ManifestIndex(storage, ID), expected, found);

        assertEquals(20, found.seen.size(), "0..19 vouched for by the counts");
        assertTrue(found.seen.contains(19));
        assertEquals(3, check.checkedFiles);
        assertEquals(1, check.notes.size());
        assertTrue(check.notes.get(0).contains("span offsets 20–29 and hold 9 records by their manifests, but 10 "
                + "expected offsets there are in no other file"), check.notes.get(0));
        assertEquals(1, check.unverifiable.size());
        assertEquals("t/a/t+0+30.bin", check.unverifiable.get(0).path());
        assertTrue(check.unverifiable.get(0).reason().contains("no manifest names it"));
    }

    /**
     * A crash after a manifest was written and before its commit leaves that manifest; the restart writes a file of
     * the same name (the same first offset) that rolled at another moment, named by the committed manifest. The
     * entry whose size is the visible file's is taken; verify failed on this right archive (a review).
     */
    @Test
    void manifestsThatDisagreeAboutAFileAreSettledByItsSize() throws Exception {
        Path root = TestDirs.newDir("claims-disagree");
        LocalBackend storage = new LocalBackend(root);
        write(root, "t/a/t+0+0.raw", "ab\n".repeat(10)); // 30 bytes: the restart's 10 records
        write(root, "t/a/t+0+10.raw", "cd\n".repeat(10));
        manifest(storage, 12, "crashed", new ManifestFile("t/a/t+0+0.raw", "s1", 12, 36, 0, 11));
        manifest(storage, 20, "restart", new ManifestFile("t/a/t+0+0.raw", "s2", 10, 30, 0, 9),
                new ManifestFile("t/a/t+0+10.raw", "s3", 10, 30, 10, 19));
        OffsetSet expected = new OffsetSet();
        expected.addRange(0, 19);
        FoundPartition found = new FoundPartition();

        ClaimCheck check = new ClaimCheck(storage);
        check.apply(0, List.of(claim("t/a/t+0+0.raw"), claim("t/a/t+0+10.raw")), new ManifestIndex(storage, ID),
                expected, found);

        assertEquals(List.of(), check.unverifiable);
        assertEquals(20, found.seen.size(), "0..19 vouched for");
        assertEquals(1, check.notes.size(), check.notes.toString());
        assertTrue(check.notes.get(0).contains("the one that gives its size, 30 bytes, is taken"), check.notes.get(0));

        // the two attempts of the same size: nothing tells them apart, and nothing passes
        manifest(storage, 11, "other", new ManifestFile("t/a/t+0+0.raw", "s4", 9, 30, 0, 8));
        ClaimCheck undecided = new ClaimCheck(storage);
        undecided.apply(0, List.of(claim("t/a/t+0+0.raw")), new ManifestIndex(storage, ID), expected,
                new FoundPartition());
        assertEquals(1, undecided.unverifiable.size());
        assertTrue(undecided.unverifiable.get(0).reason().contains("and its size, 30 bytes, is that of 2 of them"),
                undecided.unverifiable.get(0).reason());
    }

    /** A raw file whose size is not its manifest's was cut short or changed: its records are not vouched for. */
    @Test
    void aFileWhoseSizeIsNotItsManifestsIsNotVouchedFor() throws Exception {
        Path root = TestDirs.newDir("claims-cut");
        LocalBackend storage = new LocalBackend(root);
        write(root, "t/a/t+0+0.raw", "ab\n".repeat(7)); // 21 of the 30 bytes written
        write(root, "t/a/t+0+10.raw", "cd\n".repeat(10));
        manifest(storage, 20, new ManifestFile("t/a/t+0+0.raw", "s1", 10, 30, 0, 9),
                new ManifestFile("t/a/t+0+10.raw", "s2", 10, 30, 10, 19));
        OffsetSet expected = new OffsetSet();
        expected.addRange(0, 19);
        FoundPartition found = new FoundPartition();

        ClaimCheck check = new ClaimCheck(storage);
        check.apply(0, List.of(claim("t/a/t+0+0.raw"), claim("t/a/t+0+10.raw")), new ManifestIndex(storage, ID),
                expected, found);

        assertEquals(10, found.seen.size(), "only 10..19 vouched for");
        assertEquals(1, check.unverifiable.size());
        assertEquals("t/a/t+0+0.raw", check.unverifiable.get(0).path());
        assertEquals("its format stores no Kafka coordinates, and its size, 21 bytes, is not what its manifest gives "
                + "(30 bytes): cut short or changed after it was written, its records cannot be vouched for",
                check.unverifiable.get(0).reason());
    }

    private static void write(Path root, String path, String content) throws Exception {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private static ArchiveContents.Claim claim(String path) {
        return new ArchiveContents.Claim(path, SluiceFileName.parse(SluiceFileName.fileNameOf(path)).orElseThrow());
    }

    private static void manifest(LocalBackend storage, long end, ManifestFile... files) throws Exception {
        manifest(storage, end, "test", files);
    }

    private static void manifest(LocalBackend storage, long end, String writer, ManifestFile... files)
            throws Exception {
        storage.writeAtomically(Manifest.directory(ID, 0) + Manifest.name(end, writer),
                new Manifest(1, "t", ID, 0, end, List.of(files)).toJson());
    }
}
