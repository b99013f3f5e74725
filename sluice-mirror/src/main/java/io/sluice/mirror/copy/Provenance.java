package io.sluice.mirror.copy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The header a mirror adds to every record it copies: which cluster the record was copied from and at which offset,
 * as {@code <cluster ID>:<offset>} in ASCII (readable with kcat). It is always the record's last header, added after the
 * source's headers, which are copied byte for byte; a record mirrored again carries one such header per hop.
 *
 * <p>Three things read it: the mirror itself, which skips a record whose provenance names the target cluster (it
 * came from there: two mirrors in opposite directions never loop); offset translation, which finds the target offset
 * of a source offset by it; and the audit, which pairs target records with source records by it and leaves it out of
 * the comparison.
 *
 * <p>Stateless.
 */
public final class Provenance {

    /** The header's key. */
    public static final String HEADER = "sluice.mirror.source";

    private Provenance() {
    }

    /** The header's value for a record copied from offset {@code offset} of cluster {@code clusterId}. */
    public static byte[] value(String clusterId, long offset) {
        return value(hopPrefix(clusterId), offset);
    }

    /**
     * As {@link #value(String, long)}, with the source cluster's {@link #hopPrefix}: the prefix and the offset's
     * digits go straight into the header's bytes (once per copied record: a string concatenation and its encoding
     * showed in the mirror's profile).
     */
    public static byte[] value(byte[] hopPrefix, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("an offset is never negative: " + offset);
        }
        int digits = 1;
        for (long rest = offset / 10; rest > 0; rest /= 10) {
            digits++;
        }
        byte[] value = Arrays.copyOf(hopPrefix, hopPrefix.length + digits);
        long rest = offset;
        for (int i = value.length - 1; i >= hopPrefix.length; i--) {
            value[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return value;
    }

    /** Whether any hop of the record's journey started in {@code clusterId}: copying it there would close a loop. */
    public static boolean cameFrom(Headers headers, String clusterId) {
        return cameFrom(headers, hopPrefix(clusterId));
    }

    /** What every hop from {@code clusterId} begins with; made once per mirror, not per record. */
    public static byte[] hopPrefix(String clusterId) {
        return (clusterId + ":").getBytes(StandardCharsets.US_ASCII);
    }

    /** As {@link #cameFrom(Headers, String)}, with the cluster's {@link #hopPrefix}. */
    public static boolean cameFrom(Headers headers, byte[] prefix) {
        for (Header h : headers.headers(HEADER)) {
            if (startsWith(h.value(), prefix)) {
                return true;
            }
        }
        return false;
    }

    /** The last hop of a copied record: where this copy was made from; empty for a record no mirror wrote. */
    public static Optional<Hop> lastHop(Headers headers) {
        Header last = headers.lastHeader(HEADER);
        return last == null ? Optional.empty() : Optional.of(Hop.parse(last.value()));
    }

    private static boolean startsWith(byte[] value, byte[] prefix) {
        if (value == null || value.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (value[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    /** One copy: the cluster and the offset it was made from. */
    public record Hop(String clusterId, long offset) {

        static Hop parse(byte[] value) {
            String text = value == null ? "" : new String(value, StandardCharsets.US_ASCII);
            int colon = text.lastIndexOf(':');
            try {
                return new Hop(text.substring(0, colon), Long.parseLong(text.substring(colon + 1)));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("a " + HEADER + " header must read <cluster ID>:<offset>, not '"
                        + text + "'", e);
            }
        }
    }
}
