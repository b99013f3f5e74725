package io.sluice.merge.write;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The headers a merge adds to what it writes, after the input record's own (kept byte for byte): where the record
 * came from, and for late and dead records why they are where they are.
 */
public final class MergeHeaders {

    /** {@code <input name>:<partition>:<offset>}: the record's place in its input, for verify and for people. */
    public static final String SOURCE = "sluice.merge.source";
    /** On a late record: the event time of the last record emitted before it, which it falls behind. */
    public static final String LATE = "sluice.merge.late";
    /**
     * At least once only, on the first record an owner writes to an output partition after its claim: the key of the
     * last record emitted before, as committed ({@code <time>/<input>/<offset>}, or {@code none}). Records from there
     * on may repeat what an earlier owner wrote after its last commit; verify checks the order from this key.
     */
    public static final String RESUMED = "sluice.merge.resumed";
    /** On a dead letter: why the record has no place in the merge. */
    public static final String REASON = "sluice.merge.reason";
    /**
     * On a dead letter whose own timestamp is further ahead than a topic takes by default (an hour), or on a record
     * that had none (-1): that timestamp, in milliseconds; the record itself is stamped by the broker.
     */
    public static final String TIMESTAMP = "sluice.merge.timestamp";

    private MergeHeaders() {
    }

    static RecordHeaders copy(Iterable<Header> original, String input, int partition, long offset) {
        RecordHeaders headers = new RecordHeaders(original);
        headers.add(new RecordHeader(SOURCE, (input + ":" + partition + ":" + offset)
                .getBytes(StandardCharsets.US_ASCII)));
        return headers;
    }

    static void add(RecordHeaders headers, String key, String value) {
        headers.add(new RecordHeader(key, value.getBytes(StandardCharsets.UTF_8)));
    }

    /** Parses a {@link #SOURCE} value into input name, partition and offset; null if it is not one. */
    public static String[] source(byte[] value) {
        if (value == null) {
            return null;
        }
        String text = new String(value, StandardCharsets.US_ASCII);
        int second = text.lastIndexOf(':');
        int first = second <= 0 ? -1 : text.lastIndexOf(':', second - 1);
        return first <= 0 ? null : new String[] {text.substring(0, first), text.substring(first + 1, second),
            text.substring(second + 1)};
    }
}
