package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class LaneBatchesTest {

    /** What each hand-over gave each lane: the offsets of each batch, per lane, in the order of hand-overs. */
    private final Map<Integer, List<List<Long>>> received = new LinkedHashMap<>();
    private final LaneBatches.Target target = (lane, batch) -> received.computeIfAbsent(lane, l -> new ArrayList<>())
            .add(java.util.Arrays.stream(batch).map(r -> ((ConsumerRecord<?, ?>) r).offset()).collect(
                    Collectors.toList()));

    private static List<ConsumerRecord<byte[], byte[]>> fetch(long from, int count) {
        return LongStream.range(from, from + count).mapToObj(o -> new ConsumerRecord<>("t", 0, o, new byte[0],
                new byte[0])).collect(Collectors.toList());
    }

    @Test
    void interleavedLanesGetOneBatchEachInFetchOrder() {
        LaneBatches batches = new LaneBatches(4);
        List<ConsumerRecord<byte[], byte[]>> fetched = fetch(100, 9);
        batches.start(fetched);
        int[] lanes = {2, 0, 2, 3, 0, 2, 2, 3, 0};
        for (int i = 0; i < lanes.length; i++) {
            batches.add(lanes[i], i);
        }
        batches.handOver(target);

        assertEquals(List.of(2, 0, 3), new ArrayList<>(received.keySet())); // in the order the lanes got their first record
        assertEquals(List.of(List.of(100L, 102L, 105L, 106L)), received.get(2));
        assertEquals(List.of(List.of(101L, 104L, 108L)), received.get(0));
        assertEquals(List.of(List.of(103L, 107L)), received.get(3));
    }

    @Test
    void aHandOverMidFetchSplitsEachLaneAtThatPoint() {
        // as the dispatcher does where a commit is queued behind a fetch's first records
        LaneBatches batches = new LaneBatches(2);
        batches.start(fetch(0, 6));
        batches.add(0, 0);
        batches.add(1, 1);
        batches.add(0, 2);
        batches.handOver(target);
        batches.add(1, 3);
        batches.add(0, 5); // index 4 was not handed out (done by an earlier owner)
        batches.handOver(target);

        assertEquals(List.of(List.of(0L, 2L), List.of(5L)), received.get(0));
        assertEquals(List.of(List.of(1L), List.of(3L)), received.get(1));
        batches.handOver(target);
        assertEquals(2, received.get(0).size()); // nothing added since: no empty batch
    }

    @Test
    void aFetchLargerThanAnyBeforeAndAFreshStartAfterAFailedDispatch() {
        LaneBatches batches = new LaneBatches(3);
        batches.start(fetch(0, 10));
        batches.add(1, 0);
        batches.add(1, 1); // a dispatch that failed here never handed these over

        List<ConsumerRecord<byte[], byte[]>> big = fetch(1_000, 5_000);
        batches.start(big);
        for (int i = 0; i < big.size(); i++) {
            batches.add(i % 3, i);
        }
        batches.handOver(target);

        for (int lane = 0; lane < 3; lane++) {
            int l = lane;
            assertEquals(List.of(LongStream.range(0, 5_000).filter(i -> i % 3 == l).mapToObj(i -> 1_000 + i)
                    .collect(Collectors.toList())), received.get(lane));
        }
    }
}
