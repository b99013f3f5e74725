package io.sluice.merge.merging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.merge.order.MergeKey;
import io.sluice.merge.state.MergeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class PartitionMergeTest {

    private static final long WAIT = 1_000;

    /** What the output saw: "input:offset" per emitted record, "late input:offset", "reject input:offset". */
    private static final class Recorded implements MergeOutput {
        final List<String> seen = new ArrayList<>();

        /** The offsets ("input:offset") the output sets aside as it would a record it refuses. */
        final java.util.Set<String> refused = new java.util.HashSet<>();

        @Override
        public boolean emit(int input, Arrival arrival, MergeKey key, MergeKey lateAfter) {
            String at = input + ":" + arrival.record().offset();
            if (refused.contains(at)) {
                seen.add("refused " + at);
                return false;
            }
            seen.add((lateAfter == null ? "" : "late ") + at);
            return true;
        }

        @Override
        public void reject(int input, Arrival arrival) {
            seen.add("reject " + input + ":" + arrival.record().offset());
        }
    }

    private static Arrival at(long offset, long time) {
        return Arrival.timed(new ConsumerRecord<>("in", 0, offset, new byte[0], new byte[0]), time);
    }

    private static InputBuffer buffer() {
        return new InputBuffer(() -> { }, 0);
    }

    /** As a reader does: the batch, then (at the end) the cluster's confirmation of the end at {@code now}. */
    private static void offer(InputBuffer buffer, List<Arrival> batch, boolean atEnd, long now) {
        buffer.offer(batch, atEnd, -1);
        if (atEnd) {
            buffer.confirmAtEnd(now);
        }
    }

    /**
     * The merge's clock is {@link MergeClock}'s, whose readings may be near zero or below: an end the cluster never
     * confirmed is not one at any of them (a confirmation time of 0 meant "never" only on the wall clock).
     */
    @Test
    void anEndNeverConfirmedIsNoEndWhateverTheClockReads() {
        InputBuffer input = buffer();
        input.offer(List.of(), true, -1); // the reader reached the end, and has not heard the cluster confirm it
        for (long now : new long[] {-5_000_000_000L, 0, 100, MergeClock.now()}) {
            assertNull(input.head(now));
            assertFalse(input.atEnd(now), "at " + now);
        }
        input.confirmAtEnd(MergeClock.now());
        assertNull(input.head(MergeClock.now()));
        assertTrue(input.atEnd(MergeClock.now()), "confirmed just now");
    }

    @Test
    void theOutputIsTheSameWhateverHowTheRecordsArriveInBatches() throws Exception {
        long[][] times = {{1, 3, 3, 7, 9, 12}, {2, 3, 4, 5, 20}, {0, 8, 8}};
        List<String> first = null;
        Random random = new Random(42);
        for (int round = 0; round < 50; round++) {
            InputBuffer[] inputs = {buffer(), buffer(), buffer()};
            PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[3]), WAIT);
            Recorded out = new Recorded();
            int[] fed = new int[3];
            // feed random slices of the inputs, advancing between feeds, until everything is delivered and at end
            while (fed[0] < times[0].length || fed[1] < times[1].length || fed[2] < times[2].length) {
                int i = random.nextInt(3);
                int n = Math.min(times[i].length - fed[i], random.nextInt(3));
                List<Arrival> batch = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    batch.add(at(fed[i] + k, times[i][fed[i] + k]));
                }
                fed[i] += n;
                if (n > 0 || fed[i] == times[i].length) {
                    offer(inputs[i], batch, fed[i] == times[i].length, 10);
                }
                merge.advance(out, random.nextInt(4), 10);
            }
            assertEquals(PartitionMerge.Halt.IDLE, merge.advance(out, 100, 10));
            if (first == null) {
                first = out.seen;
                assertEquals(List.of("2:0", "0:0", "1:0", "0:1", "0:2", "1:1", "1:2", "1:3", "0:3", "2:1", "2:2",
                        "0:4", "0:5", "1:4"), first, "by time, ties by input then offset");
            } else {
                assertEquals(first, out.seen, "round " + round);
            }
        }
    }

    @Test
    void anInputWithNothingBufferedHoldsTheMergeUntilItIsAtItsEnd() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT);
        Recorded out = new Recorded();
        inputs[0].offer(List.of(at(0, 5), at(1, 6)), false, -1);
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, 10));
        assertEquals(1, merge.waitingFor());
        assertEquals(List.of(), out.seen);

        offer(inputs[1], List.of(), true, 10); // an empty partition: at its end at once
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, 10));
        assertEquals(0, merge.waitingFor(), "input 0 may have more: it is not at its end");
        assertEquals(List.of("0:0", "0:1"), out.seen);
        assertEquals(new MergeState(new long[] {2, 0}, new MergeKey(6, 0, 1), 2), merge.state());
    }

    /**
     * A transactional input ends with a marker, and may hold aborted records: offsets a read_committed reader passes
     * without a record. Once every record below the reader's position is settled, the state moves there (its lag was
     * otherwise 1 forever), and that counts as a move to commit; never while a record below it is still buffered.
     */
    @Test
    void offsetsWithoutRecordsArePassedOnceEveryRecordBelowIsSettled() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT);
        Recorded out = new Recorded();
        inputs[0].offer(List.of(at(0, 5), at(1, 6)), false, 3); // offset 2: a marker
        inputs[0].offer(List.of(at(3, 9)), true, 5); // offset 4: the last transaction's marker
        inputs[0].confirmAtEnd(10);
        inputs[1].offer(List.of(at(0, 7)), true, 1);
        inputs[1].confirmAtEnd(10);
        assertEquals(PartitionMerge.Halt.LIMIT, merge.advance(out, 3, 10));
        assertEquals(List.of("0:0", "0:1", "1:0"), out.seen);
        assertEquals(3, merge.moves());
        assertEquals(2, merge.state().position(0), "offset 3 is buffered: the marker at 2 is not passed yet");
        assertEquals(PartitionMerge.Halt.IDLE, merge.advance(out, 10, 10));
        assertEquals(List.of("0:0", "0:1", "1:0", "0:3"), out.seen);
        assertEquals(5, merge.state().position(0), "past the last marker: the input's end");
        assertEquals(1, merge.state().position(1));
        assertEquals(4, merge.settled(), "records");
        assertEquals(5, merge.moves(), "four records and one pass, which a commit saves");
    }

    @Test
    void aSilentInputIsGivenUpAfterTheLongestWaitAndWhatItSendsLaterIsLate() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT);
        Recorded out = new Recorded();
        offer(inputs[0], List.of(at(0, 5), at(1, 6)), true, 0);
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, WAIT - 1));
        assertEquals(WAIT, merge.wakeAt());
        assertEquals(PartitionMerge.Halt.IDLE, merge.advance(out, 10, WAIT));
        assertEquals(true, merge.givenUp(1));

        inputs[1].offer(List.of(at(0, 4), at(1, 9)), false, -1);
        merge.advance(out, 10, WAIT + 1);
        assertEquals(List.of("0:0", "0:1", "late 1:0", "1:1"), out.seen);
        assertEquals(new MergeKey(9, 1, 1), merge.state().last(), "a late record does not move the last key");
    }

    @Test
    void anEndNotConfirmedLatelyIsNotBelievedAndTheInputIsWaitedForUpToTheLongestWait() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        long wait = 10_000;
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), wait);
        Recorded out = new Recorded();
        offer(inputs[0], List.of(at(0, 5)), true, 0);
        offer(inputs[1], List.of(at(0, 1)), true, 0);
        assertEquals(PartitionMerge.Halt.IDLE, merge.advance(out, 10, 100));
        offer(inputs[0], List.of(at(1, 7)), false, 200);
        long later = 200 + InputBuffer.STALE_MILLIS + 1;
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, later), "input 1's end is no longer known");
        assertEquals(1, merge.waitingFor());
        inputs[1].confirmAtEnd(later);
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, later), "confirmed again: input 0 goes on");
        assertEquals(0, merge.waitingFor());
        assertEquals(List.of("1:0", "0:0", "0:1"), out.seen);
    }

    /**
     * A live input at its end holds back the other inputs' records newer than the moment its end was confirmed, less
     * the hold-back; a later confirmation lets them pass, and a record its producer had sent meanwhile is merged in
     * its place instead of late (a live merge flagged 10% of its records late, a new user's run).
     */
    @Test
    void aLiveInputAtItsEndHoldsNewerRecordsBackUntilItsEndIsConfirmedLater() throws Exception {
        long[] wall = {1_000_000};
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT, 200, () -> wall[0]);
        Recorded out = new Recorded();
        offer(inputs[1], List.of(), true, 100);
        offer(inputs[0], List.of(at(0, 999_500), at(1, 999_900)), false, 100);
        assertEquals(PartitionMerge.Halt.WAITING, merge.advance(out, 10, 100));
        assertEquals(List.of("0:0"), out.seen, "300 ms behind the confirmation passes, 100 ms behind is held");
        assertEquals(100 + PartitionMerge.HOLD_LOOK_MILLIS, merge.wakeAt());

        wall[0] = 1_000_500; // input 1's producer had sent a record at 999,850: in its log by the next confirmation
        offer(inputs[1], List.of(at(0, 999_850)), true, 600);
        merge.advance(out, 10, 600);
        assertEquals(List.of("0:0", "1:0", "0:1"), out.seen, "in its place, not late");
    }

    /** A record stamped far ahead of this clock (its producer's clock is) is not held for as long as they differ. */
    @Test
    void aRecordFarAheadOfTheClockIsNotHeld() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT, 200,
                () -> 1_000_000L);
        Recorded out = new Recorded();
        offer(inputs[1], List.of(), true, 100);
        offer(inputs[0], List.of(at(0, 1_000_000 + 600_000)), false, 100);
        merge.advance(out, 10, 100);
        assertEquals(List.of("0:0"), out.seen);
    }

    /**
     * A record the output refuses (stamped hours ahead: the output topic takes timestamps at most an hour ahead) is set
     * aside; its key became the one later records were compared with, so every record after it was late, with every
     * late policy, for good (a review).
     */
    @Test
    void aRecordTheOutputSetsAsideDoesNotMakeTheRecordsAfterItLate() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[2]), WAIT);
        Recorded out = new Recorded();
        out.refused.add("0:0");
        offer(inputs[1], List.of(), true, 0);
        offer(inputs[0], List.of(at(0, 10_000_000), at(1, 20), at(2, 30)), true, 0);
        merge.advance(out, 10, 0);
        assertEquals(List.of("refused 0:0", "0:1", "0:2"), out.seen);
        assertEquals(new MergeKey(30, 0, 2), merge.state().last());
    }

    @Test
    void recordsReadAgainBelowThePositionAreNeverMergedTwice() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[] {2, 0}), WAIT);
        Recorded out = new Recorded();
        offer(inputs[0], List.of(at(1, 1), at(2, 2)), true, 0);
        offer(inputs[1], List.of(), true, 0);
        merge.advance(out, 10, 0);
        assertEquals(List.of("0:2"), out.seen);
    }

    @Test
    void aRecordWithNoEventTimeIsRejectedInItsPlaceAndItsOffsetSettled() throws Exception {
        InputBuffer[] inputs = {buffer(), buffer()};
        PartitionMerge merge = new PartitionMerge(inputs, MergeState.initial(new long[] {10, 0}), WAIT);
        Recorded out = new Recorded();
        offer(inputs[0], List.of(Arrival.untimed(new ConsumerRecord<>("in", 0, 10L, null, null), "no field"),
                at(11, 3)), true, 0);
        offer(inputs[1], List.of(at(0, 1)), true, 0);
        assertEquals(PartitionMerge.Halt.IDLE, merge.advance(out, 10, 0));
        assertEquals(List.of("reject 0:10", "1:0", "0:11"), out.seen);
        assertEquals(new MergeState(new long[] {12, 1}, new MergeKey(3, 0, 11), 2), merge.state());
    }

    @Test
    void aRestartFromAnyCommittedStateGoesOnAsTheUninterruptedMergeWould() throws Exception {
        long[][] times = {{1, 4, 4, 6, 10}, {2, 4, 5, 11}};
        Recorded whole = new Recorded();
        List<MergeState> states = new ArrayList<>();
        PartitionMerge uninterrupted = merge(times, MergeState.initial(new long[2]));
        states.add(uninterrupted.state());
        while (uninterrupted.advance(whole, 1, 0) == PartitionMerge.Halt.LIMIT) {
            states.add(uninterrupted.state());
        }
        for (MergeState state : states) {
            Recorded resumed = new Recorded();
            merge(times, state).advance(resumed, 100, 0);
            int done = (int) state.emitted();
            assertEquals(whole.seen.subList(done, whole.seen.size()), resumed.seen, "from " + state);
        }
    }

    /** A merge whose inputs hold everything from the state's positions on, all read to their ends. */
    private static PartitionMerge merge(long[][] times, MergeState state) {
        InputBuffer[] inputs = new InputBuffer[times.length];
        for (int i = 0; i < times.length; i++) {
            inputs[i] = buffer();
            List<Arrival> batch = new ArrayList<>();
            for (int o = (int) state.position(i); o < times[i].length; o++) {
                batch.add(at(o, times[i][o]));
            }
            offer(inputs[i], batch, true, 0);
        }
        return new PartitionMerge(inputs, state, WAIT);
    }
}
