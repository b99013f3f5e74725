package io.sluice.local.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
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
 * to get the same port for two listeners, and exit). Nor is it handed out by another JVM on the machine meanwhile
 * (the test JVMs of two modules built at once, {@code -T}): each port handed out is locked, as one byte of a file in the
 * temporary directory ({@value #RESERVATIONS}), until it leaves the remembered ones or this JVM ends; the operating
 * system drops the locks of a JVM that dies. Where that file cannot be written, ports are not reserved across JVMs.
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
    /** The file whose byte {@code port} a JVM locks while it holds {@code port}: one file and descriptor for all. */
    static final String RESERVATIONS = "sluice-ports.lock";
    /** The ports handed out last, oldest first, with their lock (null when not reserved); guarded by itself. */
    private static final Map<Integer, FileLock> HANDED_OUT = new LinkedHashMap<>();
    /** Opened on the first draw; null when it cannot be. Guarded by {@link #HANDED_OUT}. */
    private static FileChannel reservations;
    private static boolean reservationsOpened;

    private Ports() {
    }

    /** A port that was free a moment ago, outside the ephemeral range. */
    public static int free() {
        IOException last = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, HIGHEST);
            if (!handOut(port)) {
                continue; // given to a server of this or another JVM that may not have bound it yet
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

    /**
     * Remembers {@code port} as handed out and reserves it; false when it was handed out among the last
     * {@link #REMEMBERED} here, or another JVM holds it.
     */
    static boolean handOut(int port) {
        synchronized (HANDED_OUT) {
            if (HANDED_OUT.containsKey(port)) {
                return false;
            }
            FileLock lock = null;
            FileChannel file = reservations();
            if (file != null) {
                try {
                    lock = file.tryLock(port, 1, false);
                    if (lock == null) {
                        return false; // another JVM holds it
                    }
                } catch (IOException e) {
                    lock = null; // the lock could not be asked for: the port goes unreserved, as without the file
                }
            }
            HANDED_OUT.put(port, lock);
            if (HANDED_OUT.size() > REMEMBERED) {
                Iterator<FileLock> oldest = HANDED_OUT.values().iterator();
                release(oldest.next());
                oldest.remove();
            }
            return true;
        }
    }

    /** Whether {@code port} is among the last handed out by this JVM. */
    static boolean handedOutHere(int port) {
        synchronized (HANDED_OUT) {
            return HANDED_OUT.containsKey(port);
        }
    }

    private static FileChannel reservations() {
        if (!reservationsOpened) {
            reservationsOpened = true;
            try {
                reservations = FileChannel.open(Path.of(System.getProperty("java.io.tmpdir"), RESERVATIONS),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            } catch (IOException | UnsupportedOperationException e) {
                reservations = null; // not reserved across JVMs: a clash shows as a bind failure in a server's log
            }
        }
        return reservations;
    }

    private static void release(FileLock lock) {
        if (lock != null) {
            try {
                lock.release();
            } catch (IOException ignored) {
                // released when this JVM ends
            }
        }
    }
}
