package io.sluice.cli.probe;

import io.sluice.cli.console.Units;
import java.time.Duration;
import java.util.List;

/**
 * Compares what a bootstrap address speaks with the client's {@code security.protocol} and {@code sasl.mechanism},
 * and words the mismatch as what to set.
 *
 * <p>Threading: stateless.
 */
final class ProbeVerdict {

    private ProbeVerdict() {
    }

    /** The problem with using {@code address} as configured, or null when there is none. */
    static String problem(String address, BootstrapProbe.Observation seen, String protocol, String mechanism,
            Duration timeout) {
        PortSpeaks speaks = seen.speaks();
        List<String> mechanisms = seen.saslMechanisms();
        switch (speaks) {
            case NOTHING_LISTENS:
                return address + ": nothing listens there (connection refused); is the broker running, and is this "
                        + "its port?";
            case NO_ANSWER:
                return address + ": no answer within " + Units.duration(timeout) + "; a firewall, a wrong address or "
                        + "a host that is down";
            case SILENT:
                return address + ": a connection is accepted there, but nothing answers within "
                        + Units.duration(timeout) + ", in plain TCP or TLS; a broker that hangs, or a proxy or "
                        + "firewall that accepts and drops";
            case UNKNOWN_HOST:
                return address + ": the host name does not resolve; check bootstrap.servers";
            case NOT_KAFKA:
                return address + ": something answers there, but neither as Kafka nor with TLS; is this the broker's "
                        + "port?";
            case CONTROLLER:
                return address + ": a KRaft controller listens there, not a broker: controllers serve no clients. "
                        + "Give a broker's listener (the broker's listeners setting, not controller.quorum.voters)";
            case TLS_ONLY:
                return address + ": this port speaks TLS but closed the connection before answering as Kafka; it may "
                        + "require a client certificate (ssl.keystore.location)" + (protocol.endsWith("SSL") ? ""
                        : ", and the client must use TLS: set security.protocol=SSL");
            default:
                break;
        }
        if (speaks.securityProtocol().equals(protocol)) {
            if (!mechanisms.isEmpty() && !mechanisms.contains(mechanism)) {
                return address + ": the listener offers SASL mechanisms " + mechanisms + ", not " + mechanism
                        + ": set sasl.mechanism=" + mechanisms.get(0);
            }
            return null;
        }
        boolean portTls = speaks == PortSpeaks.SSL || speaks == PortSpeaks.SASL_SSL;
        boolean clientTls = protocol.endsWith("SSL");
        String fix = "set security.protocol=" + speaks.securityProtocol()
                + (mechanisms.isEmpty() || mechanisms.contains(mechanism) ? "" : " and sasl.mechanism (one of "
                        + mechanisms + ")");
        if (portTls && !clientTls) {
            return address + ": this port speaks TLS, but security.protocol is " + protocol + ": " + fix;
        }
        if (!portTls && clientTls) {
            return address + ": this port speaks plain TCP, not TLS, but security.protocol is " + protocol + ": " + fix;
        }
        if (!mechanisms.isEmpty()) {
            return address + ": this listener wants a SASL login (mechanisms " + mechanisms + "), but security.protocol "
                    + "is " + protocol + ": " + fix;
        }
        return address + ": this listener does not use SASL, but security.protocol is " + protocol + ": " + fix;
    }
}
