package io.sluice.storage.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
    /** A sink holding little: room for any file of the tests below in half the roomy limit. */
    private static final Heap LIGHT = new Heap(1_000);

    /** 3 open files; the sink may hold 10 MiB, so files open while they take at most 5 MiB. */
    private final RollDecision roomy = new RollDecision(new RollingPolicy(1_000, 10, Duration.ofMinutes(1), 3),
            10L << 20);

    @Test
    void aDirectoryGetsAFileOnceItsHeldRecordsCostMoreThanAFile() {
        long min = RollDecision.MIN_HELD_TO_OPEN;
        assertEquals(RollDecision.Opening.HOLD, roomy.forNewDirectory(0, min - 1, 10, LIGHT),
                "below a stream format's first chunk: held, even with no file open");
        assertEquals(RollDecision.Opening.OPEN, roomy.forNewDirectory(0, min, 10, LIGHT));
        long parquetFile = 700L << 10;
        assertEquals(RollDecision.Opening.HOLD, roomy.forNewDirectory(2, parquetFile - 1, parquetFile, LIGHT),
                "a writer that costs 700 KiB from its first row is worth it only for more than that");
        assertEquals(RollDecision.Opening.OPEN, roomy.forNewDirectory(2, parquetFile, parquetFile, LIGHT));
        assertEquals(RollDecision.Opening.EVICT_AND_OPEN, roomy.forNewDirectory(3, parquetFile, parquetFile, LIGHT),
                "at the bound it takes the least recently written file's place");
    }

    @Test
    void filesOpenOnlyWhileTheyLeaveRoomInHalfTheMemoryLimit() {
        long mib = 1L << 20;
        assertEquals(RollDecision.Opening.OPEN, roomy.forNewDirectory(0, mib, mib, new Heap(3 * mib, mib)),
                "5 MiB with it: fits in half the limit");
        assertEquals(RollDecision.Opening.HOLD, roomy.forNewDirectory(0, mib, mib + 1, new Heap(3 * mib, mib)),
                "past half the limit the records stay held, packed (the limit rolls the partition holding the most)");
        assertEquals(RollDecision.Opening.HOLD, roomy.forNewDirectory(3, 1L << 30, mib, new Heap(4 * mib + 1)),
                "no eviction either: the new file would not fit");
    }

    @Test
    void aHeldRecordRollsItsPartitionAsAWrittenOneWould() {
        Heap over = new Heap(70, 40, 10);
        assertEquals(Optional.of(RollTrigger.MEMORY_PRESSURE), rolls.afterHolding(1, 1, 70, over));
        assertEquals(Optional.empty(), rolls.afterHolding(1, 1, 40, over), "another partition holds more");
        assertEquals(Optional.empty(), rolls.afterHolding(1, 1, 50, UNDER_LIMIT));
        assertEquals(Optional.of(RollTrigger.RECORDS), rolls.afterHolding(1, 10, 50, UNDER_LIMIT),
                "a held directory's file would reach the record limit");
        assertEquals(Optional.of(RollTrigger.SIZE), rolls.afterHolding(1_000, 1, 50, UNDER_LIMIT),
                "its records' size in memory stands for the file's");
    }

    @Test
    void everythingRollsWhenTheParkedFilesReachTheirCountOrTheSizeLimit() {
        int bound = RollDecision.MAX_PARKED_PER_OPEN_FILE * 3;
        assertEquals(Optional.empty(), rolls.afterEviction(bound - 1, 999));
        assertEquals(Optional.of(RollTrigger.OPEN_FILE_BOUND), rolls.afterEviction(bound, 10));
        assertEquals(Optional.of(RollTrigger.OPEN_FILE_BOUND), rolls.afterEviction(1, 1_000));
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
