package io.sluice.reassign.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plan file that is missing, broken or not a plan is refused in words: which file, what is wrong, where. */
class PlanFileTest {

    @TempDir
    Path dir;

    @Test
    void aMissingPlanSaysHowToWriteOne() {
        Path file = dir.resolve("nosuch.json");
        assertEquals("there is no plan " + file + "; write one with ./sluice reassign plan ... --output " + file,
                refusal(file));
        assertTrue(refusal(dir).contains("(it is a folder)"), refusal(dir));
    }

    @Test
    void brokenJsonSaysWhereAndWhat() throws Exception {
        Path file = Files.writeString(dir.resolve("bad.json"), "{\n  moves: []}");
        String refusal = refusal(file);
        assertTrue(refusal.startsWith("the plan " + file + " is not JSON: ") && refusal.contains("(line 2, column"),
                refusal);
        assertWords(refusal);
        Path cut = Files.writeString(dir.resolve("cut.json"), "{\"moves\": [\n  {\"topic\": \"a\"");
        assertEquals("the plan " + cut + " ends early (line 2, column 16): it was cut short; plan again", refusal(cut));
        for (String text : new String[] {"{", "{\"moves\": [],"}) { // cut between values: Jackson's own EOF
            Path top = Files.writeString(dir.resolve("top.json"), text);
            String topRefusal = refusal(top);
            assertTrue(topRefusal.startsWith("the plan " + top + " ends early (line 1"), topRefusal);
            assertWords(topRefusal);
        }
    }

    @Test
    void jsonThatIsNoPlanIsRefusedWithoutJavaNames() throws Exception {
        for (String text : new String[] {"{\"moves\":[]}", "[1, 2]", "moves: []\n"}) {
            Path file = Files.writeString(dir.resolve("odd.json"), text);
            String refusal = refusal(file);
            assertTrue(refusal.startsWith("the plan " + file + " ") && refusal.contains("(line 1, column"), refusal);
            assertWords(refusal);
        }
    }

    @Test
    void aPlanKeepsTheClusterItWasMadeOnAndAnOlderPlanThatNamesNoneStillReads() throws Exception {
        Path file = dir.resolve("plan.json");
        ReassignmentPlan plan = new ReassignmentPlan("q1RgY5bGQ3-Wk4tLkT0kXA", "balance bytes",
                List.of(new PartitionMove("t", 0, List.of(1, 2), List.of(3, 2), 100)), List.of());
        PlanFile.write(file, plan);
        assertEquals(plan, PlanFile.read(file));

        Path older = Files.writeString(dir.resolve("older.json"), Files.readString(file)
                .replaceAll("\"cluster\" *: *\"[^\"]*\",", ""));
        assertFalse(Files.readString(older).contains("cluster"), Files.readString(older));
        ReassignmentPlan read = PlanFile.read(older);
        assertNull(read.cluster());
        assertEquals(plan.moves(), read.moves());
    }

    private static String refusal(Path file) {
        return assertThrows(IllegalArgumentException.class, () -> PlanFile.read(file)).getMessage();
    }

    private static void assertWords(String refusal) {
        assertFalse(refusal.contains("io.sluice") || refusal.contains("java.") || refusal.contains("Exception")
                || refusal.contains("REDACTED"), "no Java names or Jackson notes: " + refusal);
    }
}
