package io.sluice.merge.audit;

import io.sluice.merge.write.MergeHeaders;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A record's content as 64 bits of SHA-256 over its key, value, timestamp and headers — the headers the merge adds
 * ({@code sluice.merge.*}) left out, so an input record and its place in the output compare equal exactly when the
 * merge kept it byte for byte. Null and empty are told apart.
 *
 * <p>Threading: one instance per thread.
 */
final class Digest {

    private static final String MERGE_HEADERS = "sluice.merge.";

    private final MessageDigest sha;

    Digest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    long of(ConsumerRecord<byte[], byte[]> r) {
        sha.reset();
        bytes(r.key());
        bytes(r.value());
        sha.update(ByteBuffer.allocate(8).putLong(timestamp(r)).array());
        for (Header h : r.headers()) {
            if (!h.key().startsWith(MERGE_HEADERS)) {
                bytes(h.key().getBytes(StandardCharsets.UTF_8));
                bytes(h.value());
            }
        }
        return ByteBuffer.wrap(sha.digest()).getLong();
    }

    /**
     * The record's timestamp, or the one the merge kept in a header when it could not write it (an input record
     * without one, -1: the output record is stamped by the broker).
     */
    private static long timestamp(ConsumerRecord<byte[], byte[]> r) {
        Header kept = r.headers().lastHeader(MergeHeaders.TIMESTAMP);
        if (kept != null && kept.value() != null) {
            try {
                return Long.parseLong(new String(kept.value(), StandardCharsets.US_ASCII));
            } catch (NumberFormatException e) {
                return r.timestamp(); // not the merge's: compared as the record's own
            }
        }
        return r.timestamp();
    }

    private void bytes(byte[] b) {
        if (b == null) {
            sha.update((byte) 0);
            return;
        }
        sha.update((byte) 1);
        sha.update(ByteBuffer.allocate(4).putInt(b.length).array());
        sha.update(b);
    }
}
