package io.sluice.local.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The proxy's fault modes against a plain echo server; {@code ProxiedBrokerTest} covers them with Kafka. */
class FaultProxyTest {

    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread t = new Thread(() -> {
                        try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                            in.transferTo(out);
                        } catch (IOException e) {
                            // client went away
                        }
                    });
                    t.setDaemon(true);
                    t.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
        proxy = FaultProxy.start(0, echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket s = connect()) {
            assertEquals("hello", roundTrip(s, "hello"));
        }
    }

    @Test
    void cutResetsOpenConnectionsAndRefusesNewOnesUntilRestored() throws IOException {
        try (Socket s = connect()) {
            assertEquals("one", roundTrip(s, "one"));
            proxy.cut();
            assertThrows(IOException.class, () -> {
                // the reset may surface on the write or on the read
                for (int i = 0; i < 100; i++) {
                    roundTrip(s, "two");
                }
            });
        }
        try (Socket refused = connect()) {
            assertThrows(IOException.class, () -> roundTrip(refused, "three"));
        }
        proxy.restore();
        try (Socket s = connect()) {
            assertEquals("four", roundTrip(s, "four"));
        }
    }

    @Test
    void blackholeHoldsTrafficWithoutClosingAndRestoreDeliversIt() throws IOException {
        try (Socket s = connect()) {
            proxy.blackhole();
            s.getOutputStream().write("held".getBytes());
            s.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, () -> s.getInputStream().read());
            proxy.restore();
            s.setSoTimeout(5_000);
            byte[] back = new byte[4];
            new DataInputStream(s.getInputStream()).readFully(back);
            assertEquals("held", new String(back));
        }
    }

    @Test
    void latencyDelaysEachDirection() throws IOException {
        try (Socket s = connect()) {
            proxy.latency(Duration.ofMillis(200));
            long start = System.nanoTime();
            assertEquals("slow", roundTrip(s, "slow"));
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(elapsedMillis >= 400, "a round trip crosses the proxy twice: " + elapsedMillis + " ms");
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(5_000);
        return s;
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes());
        s.getOutputStream().flush();
        byte[] back = new byte[text.length()];
        new DataInputStream(s.getInputStream()).readFully(back);
        return new String(back);
    }
}
