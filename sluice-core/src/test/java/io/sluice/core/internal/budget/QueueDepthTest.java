package io.sluice.core.internal.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How deep a partition's queue may grow: learnt from the first fetch after each pause. */
class QueueDepthTest {

    private static final long FETCH = 1024 * 1024;

    private final QueueDepth depth = new QueueDepth(FETCH);

    @Test
    void aQueueStartsAtOneFetch() {
        assertEquals(FETCH, depth.cap());
    }

    @Test
    void aFetchThatArrivesAfterTheLanesRanDryDoublesTheQueueUpToSixteenFetches() {
        for (long expected : new long[] {2, 4, 8, 16, 16}) {
            depth.resumed(FETCH / 2);
            depth.refilled(0, 0);
            assertEquals(expected * FETCH, depth.cap());
        }
    }

    @Test
    void aFetchThatArrivesWithMoreThanHalfTheResumeMarkLeftGivesBackOneFetch() {
        growTo(4 * FETCH);
        depth.resumed(2 * FETCH);
        depth.refilled(5, FETCH + 1); // the resume mark is 2 fetches: over half of it was still queued
        assertEquals(3 * FETCH, depth.cap());
    }

    @Test
    void aFetchThatArrivesWithLittleLeftKeepsTheDepth() {
        growTo(4 * FETCH);
        depth.resumed(2 * FETCH);
        depth.refilled(5, FETCH); // exactly half of the resume mark: the margin was needed
        assertEquals(4 * FETCH, depth.cap());
    }

    @Test
    void theQueueNeverShrinksBelowOneFetch() {
        depth.resumed(FETCH / 2);
        depth.refilled(5, FETCH / 2);
        assertEquals(FETCH, depth.cap());
    }

    @Test
    void onlyTheFirstFetchAfterAResumeIsJudged() {
        depth.resumed(FETCH / 2);
        depth.refilled(0, 0);
        depth.refilled(0, 0); // the partition was fetching already: its fetches follow one another
        assertEquals(2 * FETCH, depth.cap());
    }

    @Test
    void aFetchThatArrivesWhileEveryQueuedRecordIsRunningDoublesTheQueueToo() {
        // an asynchronous handler with more records in flight than a fetch holds: nothing waited to start
        depth.resumed(FETCH / 2);
        depth.refilled(0, FETCH / 2);
        assertEquals(2 * FETCH, depth.cap());
    }

    @Test
    void aResumeWithNothingQueuedIsNotJudged() {
        // the lanes had finished before the partition could fetch again: they waited on the budget, not the network
        depth.resumed(0);
        depth.refilled(0, 0);
        assertEquals(FETCH, depth.cap());
    }

    private void growTo(long cap) {
        while (depth.cap() < cap) {
            depth.resumed(1);
            depth.refilled(0, 0);
        }
        assertEquals(cap, depth.cap());
    }
}
