package io.sluice.bench;

import io.sluice.merge.write.MergeHeaders;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A merge's output as the order of its records' provenance: per output partition, SHA-256 over the sequence of its
 * records' {@code sluice.merge.source} headers ({@code input:partition:offset}) in offset order. Two runs over the
 * same inputs whose digests are equal put every input record in the same place of the same partition.
 *
 * <p>Threading: fed by the reading thread of a {@link TargetWatch}, read after it.
 */
final class OutputDigest {

    private final Map<Integer, MessageDigest> partitions = new TreeMap<>();

    /** The next record of its partition, in offset order (as a consumer returns them). */
    void add(ConsumerRecord<byte[], byte[]> record) {
        Header source = record.headers().lastHeader(MergeHeaders.SOURCE);
        MessageDigest sha = partitions.computeIfAbsent(record.partition(), p -> sha256());
        // a record without provenance still counts, so that it changes the digest (the audit names it)
        sha.update(source == null ? new byte[] {'?'} : source.value());
        sha.update((byte) '\n');
    }

    /** Per partition, the first 16 hex digits of its digest: {@code p0=..., p1=...}. */
    String text() {
        StringBuilder b = new StringBuilder();
        partitions.forEach((p, sha) -> {
            try {
                byte[] digest = ((MessageDigest) sha.clone()).digest();
                b.append(b.isEmpty() ? "" : " ").append('p').append(p).append('=')
                        .append(HexFormat.of().formatHex(digest, 0, 8));
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException("SHA-256 digests of the JDK can be cloned", e);
            }
        });
        return b.toString();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
