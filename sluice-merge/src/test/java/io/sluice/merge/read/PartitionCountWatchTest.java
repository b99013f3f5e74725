package io.sluice.merge.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.WakeupException;
import org.junit.jupiter.api.Test;

/** The watch on an input topic's partition count: looked at once a second, loud on a change, quiet on silence. */
class PartitionCountWatchTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aCountOtherThanTheStartsStopsTheMergeInWordsAndSilenceDoesNot() {
        List<Object> answers = new ArrayList<>(List.of(infos(2), new TimeoutException("no answer"),
                new WakeupException(), infos(3)));
        List<Long> asked = new ArrayList<>();
        long start = 1_000 * SECOND;
        PartitionCountWatch watch = new PartitionCountWatch("west", "orders", 2, (topic, timeout) -> {
            asked.add(timeout.toMillis());
            Object answer = answers.remove(0);
            if (answer instanceof RuntimeException e) {
                throw e;
            }
            @SuppressWarnings("unchecked")
            List<PartitionInfo> infos = (List<PartitionInfo>) answer;
            return infos;
        }, start);

        assertEquals(Optional.empty(), watch.look(start + SECOND / 2), "not yet a second since the last look");
        assertEquals(List.of(), asked);
        assertEquals(Optional.empty(), watch.look(start + SECOND), "the count it started with");
        assertEquals(Optional.empty(), watch.look(start + 2 * SECOND), "no answer: the next look asks again");
        assertEquals(Optional.empty(), watch.look(start + 3 * SECOND), "a wakeup meant for the poll: quiet too");
        Optional<String> grew = watch.look(start + 4 * SECOND);
        assertEquals(List.of(0L, 0L, 0L, 0L), asked, "never waits: the consumer's own metadata, or nothing");
        assertTrue(grew.isPresent());
        assertEquals("input 'west': topic 'orders' has 3 partitions now, the merge started with 2: partition p of "
                + "every input merges into partition p of the output, so the records of the partitions added would "
                + "not be merged. Give every input topic and the output topic the same count, then start the merge "
                + "again (what was merged stays; new partitions are merged from their beginning)", grew.get());
    }

    private static List<PartitionInfo> infos(int count) {
        List<PartitionInfo> infos = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            infos.add(new PartitionInfo("orders", p, null, null, null));
        }
        return infos;
    }
}
