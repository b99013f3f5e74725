package io.sluice.local.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on the loopback interface, for servers started on 127.0.0.1.
 *
 * <p>Ports are drawn from below the kernel's usual ephemeral range (Linux: 32768 and up; Windows and macOS: 49152 and
 * up). A port the kernel hands out for port 0 is an ephemeral one: between the moment it is released here and the
 * moment a server binds it, any client connection on the machine may take it as its source port, and the server dies
 * with "Address already in use" (seen in a CI run of the three-node cluster). Ports below that range are never given
 * to client connections; another process can still take one, which the servers' bind failure in their log shows.
 *
 * <p>A port is never handed out twice within {@value #REMEMBERED} draws of this JVM: a broker asks for one port per
 * listener before it binds any, so a port that is still free is not yet a port nobody was given (a broker was seen
 * to get the same port for two listeners, and exit).
 *
 * <p>Threading: safe for concurrent use.
 */
public final class Ports {

    private static final int LOWEST = 20_000;
    /** Exclusive: the start of Linux's default ephemeral range. */
    private static final int HIGHEST = 32_768;
    private static final int ATTEMPTS = 200;
    /** How many of the ports handed out last are never handed out again: far more than live servers use at once. */
    static final int REMEMBERED = 2_048;
    /** The ports handed out last, oldest first; guarded by itself. */
    private static final Set<Integer> HANDED_OUT = new LinkedHashSet<>();

    private Ports() {
    }

    /** A port that was free a moment ago, outside the ephemeral range. */
    public static int free() {
        IOException last = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
            if (!handOut(port)) {
                continue; // given to a server of this JVM that may not have bound it yet
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                return port;
            } catch (IOException e) {
                last = e; // taken: draw another (it stays remembered, which costs nothing)
            }
        }
        throw new UncheckedIOException("no free port on 127.0.0.1 between " + LOWEST + " and " + HIGHEST + " in "
                + ATTEMPTS + " tries", last);
    }

    /** Remembers {@code port} as handed out; false when it was handed out among the last {@link #REMEMBERED}. */
    private static boolean handOut(int port) {
        synchronized (HANDED_OUT) {
            if (!HANDED_OUT.add(port)) {
                return false;
            }
            if (HANDED_OUT.size() > REMEMBERED) {
                Iterator<Integer> oldest = HANDED_OUT.iterator();
                oldest.next();
                oldest.remove();
            }
            return true;
        }
    }
}
