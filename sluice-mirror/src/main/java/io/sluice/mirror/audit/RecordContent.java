package io.sluice.mirror.audit;

import io.sluice.mirror.copy.Provenance;
import java.util.Arrays;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * What a mirror must keep of a record: key, value, headers and timestamp (one it can keep: see
 * {@link #comparedTimestamp}). A copy's headers are its source's headers
 * plus the provenance header the mirror added last; that one is left out, and only that one (a record mirrored before
 * carries earlier hops' provenance headers, which are part of its content).
 *
 * <p>Stateless.
 */
final class RecordContent {

    private RecordContent() {
    }

    /** The headers a source record has, as the mirror copies them. */
    static Header[] ofSource(ConsumerRecord<byte[], byte[]> record) {
        return record.headers().toArray();
    }

    /** The headers of a copy, without the provenance header its mirror added. */
    static Header[] ofCopy(ConsumerRecord<byte[], byte[]> copy) {
        Header[] headers = copy.headers().toArray();
        if (headers.length > 0 && headers[headers.length - 1].key().equals(Provenance.HEADER)) {
            return Arrays.copyOf(headers, headers.length - 1);
        }
        return headers;
    }

    /** The first part of the copy that differs from its source, in words ("the value differs"), if any. */
    static Optional<String> difference(ConsumerRecord<byte[], byte[]> source, ConsumerRecord<byte[], byte[]> copy) {
        if (!Arrays.equals(source.key(), copy.key())) {
            return Optional.of("the key differs");
        }
        if (!Arrays.equals(source.value(), copy.value())) {
            return Optional.of("the value differs");
        }
        if (!sameHeaders(ofSource(source), ofCopy(copy))) {
            return Optional.of("the headers differ");
        }
        if (comparedTimestamp(source, copy) != source.timestamp()) {
            return Optional.of("the timestamp differs");
        }
        return Optional.empty();
    }

    /**
     * The copy's timestamp as compared with its source's: a source record without one (-1, which clients other than
     * Java's may write) cannot be copied with it, the producer stamps the copy with the time of the copy, so it counts
     * as kept.
     */
    static long comparedTimestamp(ConsumerRecord<byte[], byte[]> source, ConsumerRecord<byte[], byte[]> copy) {
        return source.timestamp() < 0 ? source.timestamp() : copy.timestamp();
    }

    private static boolean sameHeaders(Header[] a, Header[] b) {
        if (a.length != b.length) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!a[i].key().equals(b[i].key()) || !Arrays.equals(a[i].value(), b[i].value())) {
                return false;
            }
        }
        return true;
    }
}
