package io.sluice.local.kafka;

/** The client-facing listeners a test broker can offer. The broker always also has its own internal listeners. */
public enum Listener {
    /** Plain TCP; goes through the fault proxy when the cluster is built with {@code proxied()}. */
    PLAINTEXT,
    /** TLS with the test kit's self-signed certificate. */
    SSL,
    /** SASL/SCRAM-SHA-256; over TLS when the cluster also has TLS, else over plain TCP. */
    SASL
}
