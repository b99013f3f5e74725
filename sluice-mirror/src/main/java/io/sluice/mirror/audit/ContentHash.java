package io.sluice.mirror.audit;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.kafka.common.header.Header;

/**
 * A SHA-256 over the contents of one side of a partition, record after record in order: key, value, each header's
 * key and value, and timestamp. Every byte array is preceded by its length (-1 for null) and the headers by their
 * number, so that no two different sequences of records feed the digest the same bytes (a byte cannot move from a
 * value into the next key unnoticed, and a null stays apart from an empty array).
 *
 * <p>Threading: one thread; {@link #hex} ends it.
 */
final class ContentHash {

    private final MessageDigest digest;
    private final ByteBuffer number = ByteBuffer.allocate(Long.BYTES);

    ContentHash() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** Adds one record, with the headers that count for it (see {@link RecordContent}). */
    void add(byte[] key, byte[] value, Header[] headers, long timestamp) {
        bytes(key);
        bytes(value);
        integer(headers.length);
        for (Header h : headers) {
            bytes(h.key().getBytes(StandardCharsets.UTF_8));
            bytes(h.value());
        }
        number.clear();
        digest.update(number.putLong(timestamp).array(), 0, Long.BYTES);
    }

    /** The digest in hexadecimal. */
    String hex() {
        return HexFormat.of().formatHex(digest.digest());
    }

    private void bytes(byte[] b) {
        if (b == null) {
            integer(-1);
        } else {
            integer(b.length);
            digest.update(b);
        }
    }

    private void integer(int i) {
        number.clear();
        digest.update(number.putInt(i).array(), 0, Integer.BYTES);
    }
}
