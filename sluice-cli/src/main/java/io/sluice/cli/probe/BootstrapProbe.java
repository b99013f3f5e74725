package io.sluice.cli.probe;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.utils.Utils;

/**
 * Probes each bootstrap address before any Kafka client is created, and says plainly what is wrong instead of the
 * client's silent retries: nothing listens, the port speaks TLS while the client is set for plain TCP (or the
 * reverse), the listener wants SASL, or it is not Kafka at all.
 *
 * <p>Each address gets up to two short connections: Kafka's ApiVersions request in plain TCP, then, when that gets
 * no Kafka answer, a TLS handshake (trusting any certificate: the probe only learns the protocol and sends nothing
 * secret) and the same request inside TLS. A SaslHandshake request tells SASL listeners from plain ones.
 *
 * <p>Threading: stateless apart from its settings; safe for concurrent use.
 */
public final class BootstrapProbe {

    /** How long a probe takes before the command says what it waits for. */
    private static final Duration SLOW = Duration.ofSeconds(1);

    private final Duration timeout;

    /** @param timeout for each connect and each answer */
    public BootstrapProbe(Duration timeout) {
        this.timeout = timeout;
    }

    /** What one address answered, and what is wrong with the client's settings for it (null when nothing). */
    public record AddressCheck(String address, PortSpeaks speaks, List<String> saslMechanisms, String problem) {
        public boolean ok() {
            return problem == null;
        }
    }

    /** What {@code host:port} speaks. */
    public Observation probe(String host, int port) {
        boolean plainSilent = false; // connected, and no answer to a Kafka request in plain TCP
        try {
            Optional<List<String>> plain = talk(host, port, false);
            if (plain.isPresent()) {
                return plain.get().isEmpty() ? new Observation(PortSpeaks.PLAINTEXT, List.of())
                        : new Observation(PortSpeaks.SASL_PLAINTEXT, plain.get());
            }
        } catch (ControllerListener e) {
            return new Observation(PortSpeaks.CONTROLLER, List.of());
        } catch (UnknownHostException e) {
            return new Observation(PortSpeaks.UNKNOWN_HOST, List.of());
        } catch (ConnectException e) {
            return new Observation(PortSpeaks.NOTHING_LISTENS, List.of());
        } catch (SocketTimeoutException e) {
            if (e.getMessage() != null && e.getMessage().toLowerCase(Locale.ROOT).contains("connect")) {
                return new Observation(PortSpeaks.NO_ANSWER, List.of());
            }
            // connected, but no answer to a Kafka request in plain TCP: try TLS
            plainSilent = true;
        } catch (IOException e) {
            // closed or garbled: what a TLS port does with a plain request
        }
        try {
            Optional<List<String>> inTls = talk(host, port, true);
            if (inTls.isPresent()) {
                return inTls.get().isEmpty() ? new Observation(PortSpeaks.SSL, List.of())
                        : new Observation(PortSpeaks.SASL_SSL, inTls.get());
            }
            return new Observation(PortSpeaks.TLS_ONLY, List.of());
        } catch (ControllerListener e) {
            return new Observation(PortSpeaks.CONTROLLER, List.of());
        } catch (TlsRefused e) {
            // silent both ways is no answer at all, not an answer in another protocol: exit 1 (try again), not 2
            boolean tlsSilent = e.getCause() instanceof SocketTimeoutException;
            return new Observation(plainSilent && tlsSilent ? PortSpeaks.SILENT : PortSpeaks.NOT_KAFKA, List.of());
        } catch (IOException e) {
            return new Observation(PortSpeaks.TLS_ONLY, List.of());
        }
    }

    /** What an address speaks; the SASL mechanisms its listener offers, if it wants SASL. */
    public record Observation(PortSpeaks speaks, List<String> saslMechanisms) {
    }

    /** Probes every address of {@code bootstrap.servers} and compares with the client's security settings. */
    public List<AddressCheck> check(Map<String, ?> clientProperties) {
        Object servers = clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        if (servers == null || String.valueOf(servers).isBlank()) {
            throw new IllegalArgumentException("bootstrap.servers is not set: name the brokers, e.g. broker1:9092");
        }
        String protocol = setting(clientProperties, CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT")
                .toUpperCase(Locale.ROOT);
        String mechanism = setting(clientProperties, SaslConfigs.SASL_MECHANISM, SaslConfigs.DEFAULT_SASL_MECHANISM);
        List<AddressCheck> checks = new ArrayList<>();
        for (String address : String.valueOf(servers).split(",")) {
            address = address.trim();
            if (address.isEmpty()) {
                continue;
            }
            String host = Utils.getHost(address);
            Integer port = Utils.getPort(address);
            if (host == null || port == null) {
                checks.add(new AddressCheck(address, null, List.of(), "'" + address + "' in bootstrap.servers is not "
                        + "host:port (e.g. broker1:9092, [::1]:9092)"));
                continue;
            }
            Observation seen = probe(host, port);
            checks.add(new AddressCheck(address, seen.speaks(), seen.saslMechanisms(),
                    ProbeVerdict.problem(address, seen, protocol, mechanism, timeout)));
        }
        return checks;
    }

    private static String setting(Map<String, ?> properties, String key, String otherwise) {
        Object value = properties.get(key);
        return value == null ? otherwise : String.valueOf(value).trim();
    }

    /**
     * Checks the bootstrap addresses and throws when the client cannot work: a protocol mismatch at any address, or
     * no address that answers as Kafka. Returns the problems of addresses that do not answer while others do, as
     * warnings.
     *
     * @throws BootstrapException with one line per problem, each saying what to do
     */
    public List<String> verify(Map<String, ?> clientProperties) {
        List<AddressCheck> checks = check(clientProperties);
        List<String> mismatches = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        for (AddressCheck c : checks) {
            if (c.ok()) {
                continue;
            }
            boolean silent = c.speaks() == PortSpeaks.NOTHING_LISTENS || c.speaks() == PortSpeaks.NO_ANSWER
                    || c.speaks() == PortSpeaks.SILENT
                    || c.speaks() == PortSpeaks.UNKNOWN_HOST;
            (silent ? unreachable : mismatches).add(c.problem());
        }
        boolean anyUsable = checks.stream().anyMatch(AddressCheck::ok);
        if (!mismatches.isEmpty() || !anyUsable) {
            List<String> all = new ArrayList<>(mismatches);
            all.addAll(unreachable);
            throw new BootstrapException(String.join("\n", all), !mismatches.isEmpty());
        }
        return unreachable;
    }

    /**
     * {@link #verifyFor} for each cluster a command talks to, keyed by its role in words ("the source cluster", "input
     * 'west'"), in order: the first that fails is said with its role, and its status returned; 0 when all pass.
     */
    public int verifyClusters(String command, Map<String, ? extends Map<String, ?>> clusters, PrintWriter err) {
        for (Map.Entry<String, ? extends Map<String, ?>> cluster : clusters.entrySet()) {
            int status = verifyFor(command + " (" + cluster.getKey() + ")", cluster.getValue(), err);
            if (status != 0) {
                return status;
            }
        }
        return 0;
    }

    /**
     * {@link #verify} for a command that takes client settings from flags: warnings and problems go to {@code err},
     * prefixed with the command's name. Returns 0 when the clients can go on, 2 when a port speaks another protocol
     * than the settings say (a usage mistake), 1 when no broker answers.
     */
    public int verifyFor(String command, Map<String, ?> clientProperties, PrintWriter err) {
        // an address that accepts and does not answer takes the timeout, twice (plain, then TLS): say why it waits
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture.delayedExecutor(SLOW.toMillis(), TimeUnit.MILLISECONDS).execute(() -> {
            if (done.compareAndSet(false, true)) {
                err.println(command + ": waiting for " + clientProperties.get(
                        CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + " to answer (up to " + timeout.toSeconds()
                        + " s for each address, plain and TLS)...");
                err.flush();
            }
        });
        try {
            verify(clientProperties).forEach(w -> err.println(command + ": warning: " + w));
            return 0;
        } catch (BootstrapException e) {
            err.println(command + ": " + (e.mismatch() ? "" : "no broker answers: ") + e.getMessage());
            return e.mismatch() ? 2 : 1;
        } finally {
            done.set(true);
            err.flush();
        }
    }

    /** Thrown by {@link #verify} when the client's settings cannot work with the brokers. */
    public static final class BootstrapException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final boolean mismatch;

        BootstrapException(String message, boolean mismatch) {
            super(message);
            this.mismatch = mismatch;
        }

        /**
         * True when a broker answers but not as the settings expect (TLS, SASL): the settings are wrong. False when no
         * broker answers at all: the brokers are down or the addresses wrong.
         */
        public boolean mismatch() {
            return mismatch;
        }
    }

    /** The TLS handshake failed: the port does not speak TLS. */
    /** A KRaft controller's listener answered: Kafka, but not for clients. */
    private static final class ControllerListener extends IOException {
        private static final long serialVersionUID = 1L;
    }

    private static final class TlsRefused extends IOException {
        private static final long serialVersionUID = 1L;

        TlsRefused(Throwable cause) {
            super(cause);
        }
    }

    /**
     * Connects (in TLS when asked) and sends ApiVersions, then SaslHandshake. Empty when the answer was not Kafka's;
     * else the SASL mechanisms, an empty list when the listener does not want SASL.
     */
    private Optional<List<String>> talk(String host, int port, boolean tls) throws IOException {
        int millis = (int) Math.max(1, timeout.toMillis());
        try (Socket plain = new Socket()) {
            try {
                plain.connect(new InetSocketAddress(host, port), millis);
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("connect timed out");
            }
            plain.setSoTimeout(millis);
            Socket socket = plain;
            if (tls) {
                SSLSocket secure = (SSLSocket) trustingAnyCertificate().getSocketFactory()
                        .createSocket(plain, host, port, true);
                try {
                    secure.startHandshake();
                } catch (IOException e) {
                    throw new TlsRefused(e);
                }
                socket = secure;
            }
            KafkaHello hello = new KafkaHello(socket.getInputStream(), socket.getOutputStream());
            KafkaHello.Node node = hello.apiVersions();
            if (node == KafkaHello.Node.NOT_KAFKA) {
                return Optional.empty();
            }
            if (node == KafkaHello.Node.CONTROLLER) {
                throw new ControllerListener();
            }
            try {
                return Optional.of(hello.saslMechanisms().orElse(List.of()));
            } catch (IOException e) {
                return Optional.of(List.of()); // it answered ApiVersions, then hung up on SASL: a plain listener
            }
        }
    }

    private static SSLContext trustingAnyCertificate() throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                    // the probe learns the protocol only; the Kafka client checks the certificate
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("no TLS in this JVM: " + e, e);
        }
    }
}
