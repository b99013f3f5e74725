package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.storage.backend.LocalBackend;
import io.sluice.testkit.TestDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One group's archive of a topic per location: two groups writing one topic into one location removed each other's
 * staged files at every start (a new user's run: a backfill group beside the live one lost records), so the second
 * is refused before it touches anything.
 */
class ArchiveOwnerTest {

    private static final String TOPIC_ID = "Xw4uM0Q7T3mJcJgHq9Ykzw";
    private static final String GROUPS = "_sluice/groups/" + TOPIC_ID + "/";

    private final Path root = TestDirs.newDir("archive-owner");
    private final LocalBackend backend = new LocalBackend(root);

    @Test
    void aSecondGroupIsRefusedNamingTheFirstWhichGoesOn() throws Exception {
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID);
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID); // its restart, or a second instance

        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ArchiveOwner(backend, "backfill").claim("big", TOPIC_ID));

        assertTrue(refused.getMessage().startsWith("consumer group 'live' archives topic big into "
                + backend.describe() + " already (" + GROUPS), refused.getMessage());
        assertTrue(refused.getMessage().contains("): two groups archiving one topic into one location remove each "
                + "other's files in progress"), refused.getMessage());
        assertTrue(refused.getMessage().contains("Give this pipeline a location of its own (sink.location), or run it "
                + "as group 'live'"), refused.getMessage());
        assertEquals(1, backend.list(GROUPS).size(), "the refused group left nothing behind, and the restart's marker "
                + "took the place of the first run's: " + backend.list(GROUPS));
        new ArchiveOwner(backend, "backfill").claim("other", "Ab4uM0Q7T3mJcJgHq9Ykzw"); // another topic is its own
    }

    /**
     * A group with instances starting beside another group: a refused instance removes only its own marker, so the
     * instances that went on stay known (one shared marker, removed by a refused instance, let both groups go on: a
     * review).
     */
    @Test
    void aRefusedInstanceRemovesOnlyItsOwnMarker() throws Exception {
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID); // instance P goes on
        String p = backend.list(GROUPS).get(0);
        // another group's marker, caught mid-start: this instance lists after it was written
        backend.writeAtomically(GROUPS + "f".repeat(32) + "/00000000000000000001-x", "backfill".getBytes());
        assertThrows(IllegalStateException.class, () -> new ArchiveOwner(backend, "live").claim("big", TOPIC_ID));
        assertTrue(backend.list(GROUPS).contains(p), "P's marker stays: " + backend.list(GROUPS));
    }

    /** Every lane of a sink opens a partition at the first start: one claims, the others wait for it. */
    @Test
    void theLanesOfOneSinkClaimOnce() throws Exception {
        ArchiveOwner owner = new ArchiveOwner(backend, "live");
        ExecutorService lanes = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> opens = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                opens.add(lanes.submit(() -> {
                    owner.claim("big", TOPIC_ID);
                    return null;
                }));
            }
            for (Future<?> open : opens) {
                open.get(30, TimeUnit.SECONDS);
            }
        } finally {
            lanes.shutdownNow();
        }
        assertEquals(1, backend.list(GROUPS).size(), backend.list(GROUPS).toString());
    }

    @Test
    void aGroupNameOfAnyLengthOrScriptFits() throws Exception {
        String group = "../团队/" + "档案".repeat(60);
        new ArchiveOwner(backend, group).claim("big", TOPIC_ID);
        List<String> markers = backend.list(GROUPS);
        assertEquals(1, markers.size(), markers.toString());
        assertTrue(Files.isRegularFile(root.resolve(markers.get(0))), "within the location: " + markers);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new ArchiveOwner(backend, "b").claim("big", TOPIC_ID));
        assertTrue(refused.getMessage().startsWith("consumer group '" + group + "' archives topic big"),
                refused.getMessage());
    }

    /** Another writer's atomic write under way, or an object store's folder marker, is no group's. */
    @Test
    void temporaryFilesAndFolderMarkersAreNoGroup() throws Exception {
        Path dir = Files.createDirectories(root.resolve(GROUPS + "e".repeat(32)));
        Files.writeString(dir.resolve(".00000000000000000001-x.086492e9-9610-46f6-a198-94fa03d8fe1c.tmp"), "other");
        new ArchiveOwner(backend, "live").claim("big", TOPIC_ID);
    }

    @Test
    void noGroupClaimsNothing() throws Exception {
        new ArchiveOwner(backend, null).claim("big", TOPIC_ID);
        assertEquals(List.of(), backend.list("_sluice/"));
    }
}
