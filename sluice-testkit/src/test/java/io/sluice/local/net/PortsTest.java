package io.sluice.local.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
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
}
