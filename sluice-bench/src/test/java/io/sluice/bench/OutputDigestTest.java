package io.sluice.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.sluice.merge.write.MergeHeaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The merge benchmark's output digest: equal for the same places, different when two records change places. */
class OutputDigestTest {

    @Test
    void theSamePlacesGiveTheSameDigestAndASwapChangesIt() {
        List<String> order = List.of("west:0:0", "east:0:0", "west:0:1", "east:0:1");
        String first = digest(order);
        assertEquals(first, digest(order));
        assertEquals(2, first.split(" ").length, "one digest per partition: " + first);
        String swapped = digest(List.of("west:0:0", "west:0:1", "east:0:0", "east:0:1"));
        assertNotEquals(first, swapped);
    }

    /** The sources in partition 0, and one record in partition 1. */
    private static String digest(List<String> sources) {
        OutputDigest digest = new OutputDigest();
        long offset = 0;
        for (String source : sources) {
            digest.add(record(0, offset++, source));
        }
        digest.add(record(1, 0, "west:1:0"));
        return digest.text();
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String source) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("merged", partition, offset, null, new byte[0]);
        r.headers().add(MergeHeaders.SOURCE, source.getBytes(StandardCharsets.US_ASCII));
        return r;
    }
}
