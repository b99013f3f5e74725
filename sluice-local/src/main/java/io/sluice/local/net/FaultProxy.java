package io.sluice.local.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP proxy on 127.0.0.1 that injects network faults between clients and one upstream server (a broker that
 * advertises the proxy's address, so clients never bypass it).
 *
 * <ul>
 *   <li>{@link #cut()}: every open connection is reset and new ones are refused, as when a link goes down;
 *   <li>{@link #blackhole()}: connections are accepted but nothing is forwarded either way, as when packets are
 *       silently dropped; clients only notice through their own timeouts;
 *   <li>{@link #latency(Duration)}: every chunk of bytes is delayed by that much in each direction;
 *   <li>{@link #restore()}: back to a healthy link (bytes held during a black hole then flow, like retransmits).
 * </ul>
 *
 * <p>Threading: one acceptor thread, and two pump threads per connection (one per direction). The fault mode and
 * latency are volatile fields read by the pumps; the pumps wait on this object's monitor while black-holed and are
 * woken by {@link #restore()}.
 */
public final class FaultProxy implements AutoCloseable {

    private enum Mode { OPEN, CUT, BLACKHOLE }

    private final InetSocketAddress upstream;
    private final ServerSocket server;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile Mode mode = Mode.OPEN;
    private volatile long latencyNanos;
    private volatile boolean closed;

    private FaultProxy(int listenPort, InetSocketAddress upstream) throws IOException {
        this.upstream = upstream;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
        this.acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts a proxy on {@code listenPort} (0 picks a free one) that forwards to 127.0.0.1:{@code upstreamPort}. */
    public static FaultProxy start(int listenPort, int upstreamPort) {
        try {
            return new FaultProxy(listenPort, new InetSocketAddress(InetAddress.getLoopbackAddress(), upstreamPort));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a proxy on port " + listenPort, e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Resets every open connection and refuses new ones until {@link #restore()}. */
    public void cut() {
        mode = Mode.CUT;
        closeAll();
    }

    /** Holds all traffic, in both directions, on open and new connections, until {@link #restore()}. */
    public void blackhole() {
        mode = Mode.BLACKHOLE;
    }

    /** Delays every chunk by {@code delay} in each direction; {@link Duration#ZERO} removes the delay. */
    public void latency(Duration delay) {
        latencyNanos = delay.toNanos();
    }

    /** Ends a cut or a black hole and removes any latency. */
    public synchronized void restore() {
        latencyNanos = 0;
        mode = Mode.OPEN;
        notifyAll();
    }

    /** How many client connections are open through the proxy right now. */
    public int openConnections() {
        return sockets.size() / 2;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        closeAll();
        synchronized (this) {
            notifyAll();
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                continue;
            }
            if (mode == Mode.CUT) {
                resetQuietly(client);
                continue;
            }
            Socket target = new Socket();
            try {
                client.setTcpNoDelay(true);
                target.setTcpNoDelay(true);
                target.connect(upstream, 5_000);
            } catch (IOException e) {
                // the upstream is down: the client sees its connection reset, as it would without a proxy
                resetQuietly(client);
                closeQuietly(target);
                continue;
            }
            sockets.add(client);
            sockets.add(target);
            startPump(client, target, "up");
            startPump(target, client, "down");
        }
    }

    private void startPump(Socket from, Socket to, String direction) {
        Thread pump = new Thread(() -> pump(from, to), "fault-proxy-" + port() + "-" + direction);
        pump.setDaemon(true);
        pump.start();
    }

    private void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) != -1) {
                long arrival = System.nanoTime();
                awaitForwarding();
                long due = arrival + latencyNanos;
                long wait;
                while ((wait = due - System.nanoTime()) > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                if (mode == Mode.CUT || closed) {
                    break;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the other side closed or the proxy cut the connection: end both directions
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            sockets.remove(from);
            sockets.remove(to);
        }
    }

    private synchronized void awaitForwarding() throws InterruptedException {
        while (mode == Mode.BLACKHOLE && !closed) {
            wait();
        }
    }

    private void closeAll() {
        for (Socket s : Arrays.asList(sockets.toArray(new Socket[0]))) {
            resetQuietly(s);
        }
    }

    /** Closes with SO_LINGER 0, so the peer gets a TCP reset instead of an orderly end of stream. */
    private static void resetQuietly(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (SocketException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }
}
