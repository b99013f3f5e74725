package io.sluice.local.process;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** No child outlives its parent: not when the parent is killed, not even when the child was frozen at the time. */
class ChildCleanupTest {

    @Test
    void aChildHaltsByItselfWhenItsParentIsKilled() throws Exception {
        ChildProcess parent = startParent();
        ProcessHandle child = childOf(parent);
        parent.kill();
        child.onExit().get(20, TimeUnit.SECONDS);
        assertFalse(child.isAlive());
    }

    @Test
    void theReaperKillsAChildThatCouldNotNoticeItsParentDying() throws Exception {
        ChildProcess parent = startParent();
        ProcessHandle child = childOf(parent);
        signal("STOP", child.pid()); // a frozen child cannot read its closed pipe
        parent.kill();
        assertTrue(child.isAlive(), "the frozen child is still there");

        assertTrue(ChildRegistry.reapOrphans() >= 1);
        child.onExit().get(20, TimeUnit.SECONDS);
        assertFalse(child.isAlive());
    }

    private static ChildProcess startParent() {
        ChildProcess parent = ChildJvm.builder("orphan-parent")
                .classpathOfThisJvm()
                .jvmOptions(List.of("-Xmx64m", "-XX:TieredStopAtLevel=1"))
                .mainClass(OrphanParent.class.getName())
                .workDir(TestDirs.newDir("orphan-parent"))
                .build()
                .start();
        return parent;
    }

    private static ProcessHandle childOf(ChildProcess parent) {
        String line = parent.awaitLogLine(l -> l.startsWith("CHILD "), Duration.ofSeconds(30));
        long pid = Long.parseLong(line.substring("CHILD ".length()).trim());
        return ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("child " + pid + " is not running"));
    }

    private static void signal(String signal, long pid) throws Exception {
        assertTrue(new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor() == 0);
    }
}
