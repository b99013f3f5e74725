package io.sluice.cli.probe;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The two Kafka requests the probe sends over a connection, in Kafka's binary protocol: ApiVersions (any broker
 * answers it, SASL listeners too, before a login) and SaslHandshake, whose answer tells a SASL listener (its
 * mechanisms) from a plain one (an illegal-state error). Only the old, fixed-layout versions are used: a broker
 * answers an ApiVersions version it does not support in version 0 anyway, which is all the probe needs.
 *
 * <p>Threading: one instance per connection, used by one thread.
 */
final class KafkaHello {

    private static final short API_VERSIONS = 18;
    private static final short METADATA = 3;
    private static final short SASL_HANDSHAKE = 17;
    private static final short UNSUPPORTED_SASL_MECHANISM = 33;
    /** Larger answers are not what the probe asked for. */
    private static final int MAX_ANSWER = 1 << 20;

    private final DataInputStream in;
    private final DataOutputStream out;
    private int correlation = 0x51_00_00;

    KafkaHello(InputStream in, OutputStream out) {
        this.in = new DataInputStream(in);
        this.out = new DataOutputStream(out);
    }

    /** What a Kafka node said to ApiVersions. */
    enum Node { NOT_KAFKA, SERVES_CLIENTS, CONTROLLER }

    /**
     * Sends ApiVersions v0 and reads what the node is: a broker lists Metadata among its requests; a KRaft controller's
     * listener does not (a client there failed with "The node does not support METADATA" after its retries).
     */
    Node apiVersions() throws IOException {
        int id = send(API_VERSIONS, (short) 0, new byte[0]);
        Optional<DataInputStream> answer = answer(id);
        if (answer.isEmpty()) {
            return Node.NOT_KAFKA;
        }
        DataInputStream a = answer.get();
        try {
            short error = a.readShort();
            int count = a.readInt();
            if (error != 0 || count < 0 || count > 10_000) {
                return Node.SERVES_CLIENTS; // an answer the probe does not read further: the client will tell
            }
            for (int i = 0; i < count; i++) {
                short key = a.readShort();
                a.readShort();
                a.readShort();
                if (key == METADATA) {
                    return Node.SERVES_CLIENTS;
                }
            }
            return Node.CONTROLLER;
        } catch (EOFException e) {
            return Node.SERVES_CLIENTS;
        }
    }

    /**
     * Sends SaslHandshake v1 for PLAIN; the mechanisms the listener offers when it wants SASL, or empty when it does
     * not (it answered with an illegal-state error or closed the connection).
     */
    Optional<List<String>> saslMechanisms() throws IOException {
        byte[] mechanism = "PLAIN".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[2 + mechanism.length];
        body[0] = 0;
        body[1] = (byte) mechanism.length;
        System.arraycopy(mechanism, 0, body, 2, mechanism.length);
        int id = send(SASL_HANDSHAKE, (short) 1, body);
        Optional<DataInputStream> answer;
        try {
            answer = answer(id);
        } catch (EOFException e) {
            return Optional.empty();
        }
        if (answer.isEmpty()) {
            return Optional.empty();
        }
        DataInputStream a = answer.get();
        short error = a.readShort();
        if (error != 0 && error != UNSUPPORTED_SASL_MECHANISM) {
            return Optional.empty(); // ILLEGAL_SASL_STATE and the like: not a SASL listener
        }
        int count = a.readInt();
        List<String> mechanisms = new ArrayList<>();
        for (int i = 0; i < count && i < 64; i++) {
            byte[] name = new byte[a.readShort()];
            a.readFully(name);
            mechanisms.add(new String(name, StandardCharsets.UTF_8));
        }
        return Optional.of(mechanisms);
    }

    private int send(short apiKey, short version, byte[] body) throws IOException {
        int id = ++correlation;
        byte[] client = "sluice-probe".getBytes(StandardCharsets.UTF_8);
        out.writeInt(2 + 2 + 4 + 2 + client.length + body.length);
        out.writeShort(apiKey);
        out.writeShort(version);
        out.writeInt(id);
        out.writeShort(client.length);
        out.write(client);
        out.write(body);
        out.flush();
        return id;
    }

    /** The response body after its correlation id, when the bytes read are a Kafka response to request {@code id}. */
    private Optional<DataInputStream> answer(int id) throws IOException {
        int size = in.readInt();
        if (size < 4 || size > MAX_ANSWER) {
            return Optional.empty();
        }
        byte[] response = new byte[size];
        in.readFully(response);
        DataInputStream r = new DataInputStream(new java.io.ByteArrayInputStream(response));
        return r.readInt() == id ? Optional.of(r) : Optional.empty();
    }
}
