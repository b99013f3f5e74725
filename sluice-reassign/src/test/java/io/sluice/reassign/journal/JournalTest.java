package io.sluice.reassign.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.reassign.plan.PartitionMove;
import io.sluice.reassign.plan.ReassignmentPlan;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal read back after the writer died: the plan, the changes not restored, the moves started. */
class JournalTest {

    @TempDir
    Path dir;

    @Test
    void aReopenedJournalKnowsThePlanTheChangesNotRestoredAndTheMovesStarted() {
        Path file = dir.resolve("run.journal");
        ReassignmentPlan plan = new ReassignmentPlan("cluster-a", "add brokers [4]",
                List.of(new PartitionMove("t", 0, List.of(1, 2), List.of(4, 2), 100)), List.of());
        ConfigChange rate = new ConfigChange(ConfigResource.Type.BROKER, "4", "leader.replication.throttled.rate",
                "1000", null);
        ConfigChange retention = new ConfigChange(ConfigResource.Type.TOPIC, "t", "retention.bytes", "110", "500");
        try (Journal journal = Journal.open(file)) {
            journal.plan(plan, List.of(), new RunLimits(2, 0.7));
            journal.changing(rate);
            journal.changing(retention);
            journal.started(List.of("t-0"));
            journal.restored(rate);
        }
        try (Journal journal = Journal.open(file)) {
            assertEquals(plan, journal.plan().orElseThrow());
            assertEquals(Optional.of(new RunLimits(2, 0.7)), Journal.limits(Journal.read(file)),
                    "a resume keeps the run's batch size and disk limit");
            assertEquals(List.of(retention), journal.pending());
            assertEquals(Set.of("t-0"), journal.started());
            assertFalse(journal.isOver());
            journal.finished();
        }
        assertTrue(Journal.isOver(Journal.read(file)));
    }

    @Test
    void aLineCutShortByACrashIsIgnored() throws Exception {
        Path file = dir.resolve("cut.journal");
        ConfigChange rate = new ConfigChange(ConfigResource.Type.BROKER, "1", "follower.replication.throttled.rate",
                "1000", "5");
        try (Journal journal = Journal.open(file)) {
            journal.changing(rate);
        }
        Files.writeString(file, "{\"event\":\"changed\",\"time\":1,\"con", StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        assertEquals(List.of(rate), Journal.pending(Journal.read(file)));
        // the run that goes on writes its next entry on a line of its own, where a reader finds it
        try (Journal journal = Journal.open(file)) {
            journal.restored(rate);
        }
        assertEquals(List.of(), Journal.pending(Journal.read(file)));
    }

    @Test
    void theMirrorHearsEachChangeAfterItsLineAndAReopenedJournalMirrorsWhatIsNotRestoredAgain() {
        Path file = dir.resolve("mirrored.journal");
        List<String> heard = new ArrayList<>();
        JournalMirror mirror = new JournalMirror() {
            @Override
            public void changing(String run, Path journal, ConfigChange change) {
                // the line is on disk before the mirror hears of it
                assertTrue(Journal.pending(Journal.read(file)).contains(change));
                heard.add("changing " + run + " " + change.id());
            }

            @Override
            public void restored(String run, ConfigChange change) {
                heard.add("restored " + run + " " + change.id());
            }
        };
        ConfigChange rate = new ConfigChange(ConfigResource.Type.BROKER, "4", "leader.replication.throttled.rate",
                "1000", null);
        ConfigChange retention = new ConfigChange(ConfigResource.Type.TOPIC, "t", "retention.bytes", "110", "500");
        String run;
        try (Journal journal = Journal.open(file, mirror)) {
            journal.plan(new ReassignmentPlan("cluster-a", "balance bytes", List.of(), List.of()), List.of(),
                    new RunLimits(10, 0.8));
            run = journal.run();
            journal.changing(rate);
            journal.changing(retention);
            journal.restored(rate);
        }
        try (Journal journal = Journal.open(file, mirror)) {
            assertEquals(run, journal.run(), "the run keeps its id");
        }
        assertEquals(List.of("changing " + run + " " + rate.id(), "changing " + run + " " + retention.id(),
                "restored " + run + " " + rate.id(), "changing " + run + " " + retention.id()), heard);
    }

    /** A journal is one run's at a time: a second open is refused until the first closes. */
    @Test
    void aJournalOpenInOneRunIsRefusedToAnother() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.createTempDirectory("journal-lock").resolve("plan.json.journal");
        try (Journal first = Journal.open(file)) {
            JournalInUseException refused = org.junit.jupiter.api.Assertions.assertThrows(JournalInUseException.class,
                    () -> Journal.open(file));
            assertTrue(refused.getMessage().contains("is in use by another sluice reassign run"), refused.getMessage());
            first.finished();
        }
        try (Journal again = Journal.open(file)) {
            assertTrue(again.isOver(), "opened again once the first closed");
        }
    }
}
