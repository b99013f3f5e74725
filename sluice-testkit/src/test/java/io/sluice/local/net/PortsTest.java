package io.sluice.local.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.local.process.ChildJvm;
import io.sluice.local.process.ChildProcess;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

class PortsTest {

    /**
     * A broker asks for a port per listener before it binds any: two draws in a row must differ even though the
     * first port is still free. A random draw from the 12,768 ports would repeat within 2,048 draws almost surely.
     */
    @Test
    void noPortIsHandedOutTwiceWithinTheRememberedDraws() {
        Set<Integer> drawn = new HashSet<>();
        for (int i = 0; i < Ports.REMEMBERED; i++) {
            int port = Ports.free();
            assertTrue(port >= 20_000 && port < 32_768, "outside the ephemeral range: " + port);
            drawn.add(port);
        }
        assertEquals(Ports.REMEMBERED, drawn.size(), "every port drawn once");
    }

    /**
     * The test JVMs of two modules built at once draw from the same ports: a port one JVM handed out is not handed out
     * by another until the first lets it go, and a JVM that dies lets its ports go.
     */
    @Test
    void aPortAnotherJvmHoldsIsNotHandedOutUntilThatJvmEnds() throws Exception {
        int mine = Ports.free();
        int theirs = ThreadLocalRandom.current().nextInt(20_000, 32_000);
        while (theirs == mine || Ports.handedOutHere(theirs)) {
            theirs++;
        }
        ChildJvm holder = ChildJvm.builder("port-holder").classpathOfThisJvm().mainClass(PortHolder.class.getName())
                .args(String.valueOf(mine), String.valueOf(theirs)).workDir(TestDirs.newDir("ports")).build();
        ChildProcess child = holder.start();
        try {
            child.awaitLogLine(l -> l.equals("READY"), Duration.ofSeconds(30));
            String log = child.tail();
            assertTrue(log.contains("TAKEN " + mine), "the port this JVM holds is not the other's:\n" + log);
            assertTrue(log.contains("HELD " + theirs), "a port nobody holds is the other's:\n" + log);
            assertFalse(Ports.handOut(theirs), "the other JVM holds " + theirs);
        } finally {
            child.kill();
        }
        assertTrue(Ports.handOut(theirs), "the other JVM ended, and its ports with it");
    }
}
