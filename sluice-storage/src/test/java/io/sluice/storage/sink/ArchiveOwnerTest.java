package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One group's archive of a topic per location: two groups writing one topic into one location removed each other's
 * staged files at every start (a new user's run: a backfill group beside the live one lost records), so the second
 * is refused before it touches anything.
 */
class ArchiveOwnerTest {

    private static final String TOPIC_ID = "Xw4uM0Q7T3mJcJgHq9Ykzw";

    private final Path root = TestDirs.newDir("archive-owner");
    private final LocalBackend backend = new LocalBackend(root);

    @Test
    void aSecondGroupIsRefusedNamingTheFirstWhichGoesOn() throws Exception {
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID);
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID); // its restart

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ArchiveOwner(backend, "backfill").claim("big", TOPIC_ID));

        assertTrue(refused.getMessage().startsWith("consumer group 'live' archives topic big into "
                + backend.describe() + " already (_sluice/groups/" + TOPIC_ID + "/live): two groups archiving one "
                + "topic into one location remove each other's files in progress"), refused.getMessage());
        assertTrue(refused.getMessage().contains("Give this pipeline a location of its own (sink.location), or run it "
                + "as group 'live'"), refused.getMessage());
        assertEquals(List.of("_sluice/groups/" + TOPIC_ID + "/live"), backend.list("_sluice/groups/"),
                "the refused group left no name behind");
        new ArchiveOwner(backend, "backfill").claim("other", "Ab4uM0Q7T3mJcJgHq9Ykzw"); // another topic is its own
    }

    @Test
    void aGroupNameIsKeptWhateverItsCharacters() throws Exception {
        new ArchiveOwner(backend, "../team a/archive").claim("big", TOPIC_ID);
        List<String> names = backend.list("_sluice/groups/" + TOPIC_ID + "/");
        assertEquals(1, names.size(), names.toString());
        assertTrue(Files.isRegularFile(root.resolve(names.get(0))), "within the location: " + names);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ArchiveOwner(backend, "b").claim("big", TOPIC_ID));
        assertTrue(refused.getMessage().startsWith("consumer group '../team a/archive' archives topic big"),
                refused.getMessage());
    }

    /** Another lane of the same group, its name being written: a temporary file that is no group's. */
    @Test
    void anAtomicWriteUnderWayIsNoOtherGroup() throws Exception {
        Path dir = Files.createDirectories(root.resolve("_sluice/groups/" + TOPIC_ID));
        Files.writeString(dir.resolve(".live.086492e9-9610-46f6-a198-94fa03d8fe1c.tmp"), "live");
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID);
        assertTrue(Files.isRegularFile(dir.resolve("live")));
    }

    @Test
    void noGroupClaimsNothing() throws Exception {
        new ArchiveOwner(backend, null).claim("big", TOPIC_ID);
        assertEquals(List.of(), backend.list("_sluice/"));
    }
}
