package io.sluice.cli.probe;

/** What a bootstrap address turned out to speak when probed. */
public enum PortSpeaks {
    /** Kafka in plain TCP without SASL: {@code security.protocol=PLAINTEXT}. */
    PLAINTEXT,
    /** Kafka in plain TCP that wants a SASL login first: {@code SASL_PLAINTEXT}. */
    SASL_PLAINTEXT,
    /** Kafka inside TLS: {@code SSL}. */
    SSL,
    /** Kafka inside TLS that wants a SASL login: {@code SASL_SSL}. */
    SASL_SSL,
    /** TLS, but no Kafka answer inside it (a client certificate may be required). */
    TLS_ONLY,
    /** Something that answers neither as Kafka nor with TLS. */
    NOT_KAFKA,
    /** A KRaft controller's listener: Kafka, but it serves no client's requests (no Metadata). */
    CONTROLLER,
    /** The connection was refused: no process listens on the port. */
    NOTHING_LISTENS,
    /** No answer within the timeout: a firewall, a wrong address or a stopped host. */
    NO_ANSWER,
    /**
     * The connection is accepted, but nothing answers within the timeout, in plain TCP or TLS: a broker that hangs (a
     * frozen process, a full disk), or a proxy or firewall that accepts and drops. Not a mistake in the settings.
     */
    SILENT,
    /** The host name does not resolve. */
    UNKNOWN_HOST;

    /** The {@code security.protocol} that works with this port, or null when none does. */
    public String securityProtocol() {
        return switch (this) {
            case PLAINTEXT, SASL_PLAINTEXT, SSL, SASL_SSL -> name();
            default -> null;
        };
    }
}
