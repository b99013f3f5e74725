package io.sluice.storage.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Every roll decision, from the figures a partition's write side gives it. */
class RollDecisionTest {

    private static final long MINUTE = Duration.ofMinutes(1).toNanos();
    /** 1,000 bytes or 10 records per file, 1 minute, 3 open files; the sink may hold 100 bytes of heap. */
    private final RollDecision rolls = new RollDecision(new RollingPolicy(1_000, 10, Duration.ofMinutes(1), 3), 100);

    /** The sink's heap, as its account would report it: a total and each partition's share. */
    private record Heap(long... shares) implements SinkHeap {
        @Override
        public long total() {
            return LongStream.of(shares).sum();
        }

        @Override
        public LongStream partitions() {
            return LongStream.of(shares);
        }
    }

    private static final Heap UNDER_LIMIT = new Heap(40, 50);

    @Test
    void aRecordForAnotherDirectoryEvictsOnlyWhenTheBoundIsReached() {
        assertFalse(rolls.evictsBeforeOpening(0));
        assertFalse(rolls.evictsBeforeOpening(2));
        assertTrue(rolls.evictsBeforeOpening(3));
        assertEquals(Optional.empty(), rolls.beforeOpening(3, UNDER_LIMIT), "at the bound an eviction, not a roll");
    }

    @Test
    void everythingRollsWhenTheParkedFilesReachTheirCountOrTheSizeLimit() {
        int bound = RollDecision.MAX_PARKED_PER_OPEN_FILE * 3;
        assertEquals(Optional.empty(), rolls.afterEviction(bound - 1, 999));
        assertEquals(Optional.of(RollTrigger.OPEN_FILE_BOUND), rolls.afterEviction(bound, 10));
        assertEquals(Optional.of(RollTrigger.OPEN_FILE_BOUND), rolls.afterEviction(1, 1_000));
    }

    @Test
    void overTheMemoryLimitAPartitionWithFilesOpenRollsThemRatherThanOpenAnother() {
        Heap over = new Heap(70, 40, 10);
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE), rolls.beforeOpening(1, over),
                "even when another partition holds more: a new file would add its whole buffers");
        assertEquals(Optional.empty(), rolls.beforeOpening(0, over), "with none open, it opens one: progress");
        assertEquals(Optional.empty(), rolls.beforeOpening(2, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE), rolls.beforeOpening(3, over),
                "at the bound too: a roll frees more than an eviction");
    }

    @Test
    void aFileRollsWhenItReachesTheSizeOrTheRecordLimit() {
        assertEquals(Optional.empty(), rolls.afterWrite(999, 9, 40, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.SIZE), rolls.afterWrite(1_000, 1, 40, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.RECORDS), rolls.afterWrite(10, 10, 40, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.SIZE), rolls.afterWrite(5_000, 10, 40, UNDER_LIMIT), "both: size first");
    }

    @Test
    void overTheMemoryLimitThePartitionHoldingTheMostRolls() {
        Heap over = new Heap(70, 40, 10);
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE), rolls.afterWrite(1, 1, 70, over));
        assertEquals(Optional.empty(), rolls.afterWrite(1, 1, 40, over), "another partition holds more");
        assertEquals(Optional.empty(), rolls.afterWrite(1, 1, 10, over));
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE), rolls.afterWrite(1, 1, 60, new Heap(60, 60)),
                "a tie: no other holds more, so each of them rolls");
    }

    @Test
    void atOrUnderTheMemoryLimitNothingRollsForMemory() {
        assertEquals(Optional.empty(), rolls.afterWrite(1, 1, 100, new Heap(100)), "the limit itself is allowed");
        assertEquals(Optional.empty(), rolls.atCheckpoint(false, 0, 1, 50, UNDER_LIMIT));
    }

    @Test
    void aPartitionHoldingNothingNeverRollsForMemory() {
        SinkHeap moving = new SinkHeap() {
            @Override
            public long total() {
                return 500; // read before the partitions rolled and gave their heap back
            }

            @Override
            public LongStream partitions() {
                return LongStream.of(0, 0, 0);
            }
        };
        assertEquals(Optional.empty(), rolls.afterWrite(1, 1, 0, moving));
        assertEquals(Optional.empty(), rolls.atCheckpoint(false, 0, 1, 0, moving));
    }

    @Test
    void aCheckpointRollsTheLastTimeWhenTheFilesAreOldOrUnderPressure() {
        long opened = 5 * MINUTE;
        assertEquals(Optional.of(RollTrigger.LAST_CHECKPOINT),
                rolls.atCheckpoint(true, opened, opened, 0, UNDER_LIMIT));
        assertEquals(Optional.empty(), rolls.atCheckpoint(false, opened, opened + MINUTE - 1, 40, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.AGE), rolls.atCheckpoint(false, opened, opened + MINUTE, 40, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE),
                rolls.atCheckpoint(false, opened, opened + 1, 90, new Heap(90, 20)), "no write came to roll it");
        assertEquals(Optional.of(RollTrigger.LAST_CHECKPOINT),
                rolls.atCheckpoint(true, opened, opened + MINUTE, 90, new Heap(90, 20)), "the last one first");
    }

    @Test
    void whenTheBudgetNeedsItAPartitionRollsUnderTheSinksLimitToo() {
        assertEquals(Optional.of(RollTrigger.BUDGET), rolls.whenTheBudgetNeedsIt(40),
                "whatever the sink holds in all: the engine's share, not the sink's limit, keeps the partition paused");
        assertEquals(Optional.empty(), rolls.whenTheBudgetNeedsIt(0), "nothing open: nothing to free");
    }

    @Test
    void theMemoryLimitMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RollDecision(RollingPolicy.defaults(), 0));
        assertEquals("the sink's memory limit must be positive, not 0 bytes", e.getMessage());
    }
}
