package io.sluice.local.net;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Free TCP ports on the loopback interface. */
public final class Ports {

    private Ports() {
    }

    /**
     * A port that was free a moment ago. Another process may take it before the caller binds it; the servers we
     * start report a bind failure in their log, which the start-up wait shows.
     */
    public static int free() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1", e);
        }
    }
}
