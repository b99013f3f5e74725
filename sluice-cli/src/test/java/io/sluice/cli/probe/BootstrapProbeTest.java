package io.sluice.cli.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.cli.cluster.SecureKafka;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.local.net.Ports;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe against a real broker with plain, TLS and SASL-over-TLS listeners. */
class BootstrapProbeTest {

    private static final KafkaCluster kafka = SecureKafka.cluster();
    private final BootstrapProbe probe = new BootstrapProbe(Duration.ofSeconds(5));

    @Test
    void eachListenerIsRecognisedForWhatItSpeaks() {
        assertEquals(PortSpeaks.PLAINTEXT, probe(Listener.PLAINTEXT).speaks());
        assertEquals(PortSpeaks.SSL, probe(Listener.SSL).speaks());
        BootstrapProbe.Observation sasl = probe(Listener.SASL);
        assertEquals(PortSpeaks.SASL_SSL, sasl.speaks());
        assertEquals(List.of("SCRAM-SHA-256"), sasl.saslMechanisms());
        assertEquals(PortSpeaks.NOTHING_LISTENS, probe.probe("127.0.0.1", Ports.free()).speaks());
        // a KRaft controller answers as Kafka but serves no clients: a client there failed after its retries with
        // "The node does not support METADATA" (a new user's run)
        int controller = kafka.nodes().get(0).ports().controller();
        assertEquals(PortSpeaks.CONTROLLER, probe.probe("127.0.0.1", controller).speaks());
        BootstrapProbe.BootstrapException e = org.junit.jupiter.api.Assertions.assertThrows(
                BootstrapProbe.BootstrapException.class, () -> probe.verify(Map.of("bootstrap.servers",
                        "127.0.0.1:" + controller)));
        assertTrue(e.mismatch(), "a mistake in the settings: exit status 2");
        assertEquals("127.0.0.1:" + controller + ": a KRaft controller listens there, not a broker: controllers "
                + "serve no clients. Give a broker's listener (the broker's listeners setting, not "
                + "controller.quorum.voters)", e.getMessage());
    }

    @Test
    void matchingSettingsPassAndMismatchesSayWhatToSet() {
        assertNull(problem(Listener.PLAINTEXT, Map.of()));
        assertNull(problem(Listener.SSL, Map.of()));
        assertNull(problem(Listener.SASL, Map.of()));

        String tls = address(Listener.SSL);
        assertEquals(tls + ": this port speaks TLS, but security.protocol is PLAINTEXT: set security.protocol=SSL",
                problem(Listener.SSL, Map.of("security.protocol", "PLAINTEXT")));
        String plain = address(Listener.PLAINTEXT);
        assertEquals(plain + ": this port speaks plain TCP, not TLS, but security.protocol is SSL: set "
                + "security.protocol=PLAINTEXT", problem(Listener.PLAINTEXT, Map.of("security.protocol", "SSL")));
        String sasl = address(Listener.SASL);
        assertEquals(sasl + ": this listener wants a SASL login (mechanisms [SCRAM-SHA-256]), but security.protocol is "
                + "SSL: set security.protocol=SASL_SSL and sasl.mechanism (one of [SCRAM-SHA-256])",
                problem(Listener.SASL, Map.of("security.protocol", "SSL", "sasl.mechanism", "GSSAPI")));
        assertEquals(sasl + ": the listener offers SASL mechanisms [SCRAM-SHA-256], not PLAIN: set "
                + "sasl.mechanism=SCRAM-SHA-256", problem(Listener.SASL, Map.of("sasl.mechanism", "PLAIN")));
    }

    @Test
    void verifyFailsOnAMismatchOrWhenNothingAnswersAndWarnsAboutADeadAddressNextToAGoodOne() {
        String dead = "127.0.0.1:" + Ports.free();
        Map<String, Object> plain = kafka.clientProperties(Listener.PLAINTEXT);

        Map<String, Object> mixed = new HashMap<>(plain);
        mixed.put("bootstrap.servers", dead + "," + address(Listener.PLAINTEXT));
        assertEquals(List.of(dead + ": nothing listens there (connection refused); is the broker running, and is "
                + "this its port?"), probe.verify(mixed));

        Map<String, Object> onlyDead = new HashMap<>(plain);
        onlyDead.put("bootstrap.servers", dead);
        assertThrows(BootstrapProbe.BootstrapException.class, () -> probe.verify(onlyDead));

        Map<String, Object> wrong = new HashMap<>(plain);
        wrong.put("bootstrap.servers", address(Listener.PLAINTEXT) + "," + address(Listener.SSL));
        var e = assertThrows(BootstrapProbe.BootstrapException.class, () -> probe.verify(wrong));
        assertEquals(address(Listener.SSL) + ": this port speaks TLS, but security.protocol is PLAINTEXT: set "
                + "security.protocol=SSL", e.getMessage());
    }

    /**
     * A port that accepts connections and never answers (a hung broker, a proxy that drops) was reported as speaking
     * neither Kafka nor TLS, a settings mistake (exit 2), where nothing answered at all (exit 1: try again later).
     */
    @Test
    void aPortThatAcceptsAndNeverAnswersIsSilentNotAnotherProtocol() throws Exception {
        BootstrapProbe quick = new BootstrapProbe(Duration.ofSeconds(1));
        // the kernel completes connections into the backlog; nothing ever reads or writes them
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String address = "127.0.0.1:" + silent.getLocalPort();
            assertEquals(PortSpeaks.SILENT, quick.probe("127.0.0.1", silent.getLocalPort()).speaks());
            var e = assertThrows(BootstrapProbe.BootstrapException.class,
                    () -> quick.verify(Map.of("bootstrap.servers", address)));
            assertFalse(e.mismatch(), "no broker answered: not a mistake in the settings");
            assertEquals(address + ": a connection is accepted there, but nothing answers within 1 s, in plain TCP "
                    + "or TLS; a broker that hangs, or a proxy or firewall that accepts and drops", e.getMessage());
        }
    }

    private BootstrapProbe.Observation probe(Listener listener) {
        String[] hostPort = address(listener).split(":");
        return probe.probe(hostPort[0], Integer.parseInt(hostPort[1]));
    }

    private static String address(Listener listener) {
        return kafka.bootstrapServers(listener);
    }

    /** The problem the probe finds with the listener's own client settings, changed by {@code overrides}. */
    private String problem(Listener listener, Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(listener));
        props.putAll(overrides);
        List<BootstrapProbe.AddressCheck> checks = probe.check(props);
        assertEquals(1, checks.size());
        return checks.get(0).problem();
    }
}
