package io.sluice.local.kafka;

import io.sluice.local.net.Ports;

/**
 * The ports of one test broker, fixed for its whole life so that a restart comes back on the same addresses.
 * {@code advertised} is what clients of the PLAINTEXT listener are told to use: the fault proxy's port when the
 * cluster is proxied, else {@code plaintext} itself.
 */
public record NodePorts(int plaintext, int advertised, int internal, int controller, int ssl, int sasl) {

    static NodePorts allocate(boolean tls, boolean sasl) {
        int plaintext = Ports.free();
        return new NodePorts(plaintext, plaintext, Ports.free(), Ports.free(),
                tls ? Ports.free() : -1, sasl ? Ports.free() : -1);
    }

    NodePorts advertising(int port) {
        return new NodePorts(plaintext, port, internal, controller, ssl, sasl);
    }
}
