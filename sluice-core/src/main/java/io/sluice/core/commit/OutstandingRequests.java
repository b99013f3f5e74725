package io.sluice.core.commit;

/**
 * Whether one producer waits for answers from one broker, from the two counts its client keeps for that broker:
 * requests written to the connection and responses read from it ({@code producer-node-metrics} {@code request-total}
 * and {@code response-total}). Their difference is the requests in flight, plus those a dropped connection lost (the
 * client answers those itself and does not count them): the lost ones never come back, so the difference has a
 * floor, learned as its least value over the last half minute to minute in which the broker answered. A difference
 * above the floor with no response since the last look is a wait. Reading the counts at looks a second apart loses
 * nothing: a broker that stops answering with its five requests in flight, so that the client can send no more,
 * still shows the difference above its floor (the rule "requests moved, responses did not" missed that, and a
 * connection's first request). Known limit: a broker cut off while nothing was in flight to it, and that refuses new
 * connections, is never sent a request, so it owes nothing here.
 *
 * <p>Threading: one thread at a time (its owner's).
 */
final class OutstandingRequests {

    /** How long one window of the floor lasts; the floor is the least of this window's and the last one's. */
    static final long WINDOW_NANOS = 30_000_000_000L;
    /**
     * An answer after a wait this long most likely came on a new connection (the client gives a held request up and
     * connects again), so what is still unanswered was lost with the old one: it becomes the floor at once, rather than
     * making an idle producer seem to wait until the window passes. Too high a floor comes down by itself, as the
     * least difference seen.
     */
    static final long SETTLE_AFTER_NANOS = 5_000_000_000L;

    private double requests;
    private double responses;
    /** The least difference in this window, and in the last window in which the broker answered. */
    private double floorNow;
    private double floorBefore;
    private boolean answeredThisWindow;
    private long windowStart;
    /** The last look at which this producer owed the broker nothing, or heard from it. */
    private long quietAt;

    /** From a producer's counts when first seen: nothing lost yet, so anything in flight is a wait. */
    OutstandingRequests(long now, double requests, double responses) {
        this.requests = requests;
        this.responses = responses;
        this.floorNow = requests - responses;
        this.floorBefore = 0;
        this.windowStart = now;
        this.quietAt = now;
    }

    /** One look at the counts; returns whether the broker answered since the last look. */
    boolean look(long now, double requests, double responses) {
        boolean answered = responses != this.responses;
        boolean waitedLong = waitingSince() >= 0 && now - quietAt >= SETTLE_AFTER_NANOS;
        this.requests = requests;
        this.responses = responses;
        double difference = requests - responses;
        if (now - windowStart >= WINDOW_NANOS) {
            // a window in which the broker never answered says nothing of what was lost: a silent broker's requests
            // in flight would become the floor, and the wait would seem to end
            if (answeredThisWindow) {
                floorBefore = floorNow;
            }
            floorNow = difference;
            answeredThisWindow = false;
            windowStart = now;
        }
        floorNow = Math.min(floorNow, difference);
        if (answered && waitedLong) {
            floorNow = difference;
            floorBefore = difference;
        }
        answeredThisWindow |= answered;
        if (answered || difference <= floor()) {
            quietAt = now;
        }
        return answered;
    }

    /** This process did not run: the broker is not to blame for the time. */
    void restart(long now) {
        quietAt = now;
    }

    /** Since when the producer has waited for the broker with no answer, or -1 when it does not wait. */
    long waitingSince() {
        return requests - responses > floor() ? quietAt : -1;
    }

    private double floor() {
        return Math.min(floorNow, floorBefore);
    }
}
