package io.sluice.merge.merging;

import io.sluice.merge.order.MergeKey;
import io.sluice.merge.state.MergeState;
import java.util.function.LongSupplier;

/**
 * The merge of one output partition: of the inputs' heads, the record with the smallest {@link MergeKey} goes next,
 * but only once every input has a head or cannot have one (it is at its end, or has been silent for the longest
 * wait). That rule makes the output a function of the input records: a record is never emitted while an input that
 * may still hold a smaller one is merely slow. A record whose key is below the last one emitted (it came after its
 * input was at its end or given up, or its input is itself out of order) is emitted with {@code lateAfter} set, and
 * the output applies the late policy. An input at its end is passed only by records older than the moment its end was
 * confirmed, less the hold-back ({@link io.sluice.merge.MergeConfig#holdBack}): a live input's producer may have sent
 * records just before that were not in its log yet.
 *
 * <p>Positions move only after the output took a record, so {@link #state} always describes exactly what was handed
 * to the output: the committed state of a partition is its {@code state()} at the commit.
 *
 * <p>Threading: one merge thread at a time (the partition's worker); the buffers' reader side runs elsewhere.
 */
public final class PartitionMerge {

    /** Why {@link #advance} stopped. */
    public enum Halt {
        /** The limit was reached: there may be more to do now. */
        LIMIT,
        /** An input that may still have smaller records has nothing buffered: wait for it. */
        WAITING,
        /** Every input is at its end (or given up) with nothing buffered. */
        IDLE
    }

    /** How often a held record looks again: the reader confirms an input's end every half second. */
    static final long HOLD_LOOK_MILLIS = 50;

    private final InputBuffer[] inputs;
    private final long maxWaitMillis;
    private final long holdBackMillis;
    private final LongSupplier wallClock;
    /** When a record held back looks again ({@link MergeClock} time), or {@code Long.MAX_VALUE}. */
    private long holdingUntil = Long.MAX_VALUE;
    private final long[] positions;
    private MergeKey last;
    private long emitted;
    private long settled;
    /** Steps of the positions: each record settled, and each pass over offsets without records. */
    private long moves;
    private int waitingFor = -1;
    private final boolean[] givenUp;

    public PartitionMerge(InputBuffer[] inputs, MergeState start, long maxWaitMillis) {
        this(inputs, start, maxWaitMillis, 0, System::currentTimeMillis);
    }

    /**
     * @param holdBackMillis how far behind an input's confirmed end a record must be to pass it ({@link
     *                       io.sluice.merge.MergeConfig#holdBack}); 0 still holds a record newer than the confirmation
     * @param wallClock      the time event times are compared with (epoch milliseconds)
     */
    public PartitionMerge(InputBuffer[] inputs, MergeState start, long maxWaitMillis, long holdBackMillis,
            LongSupplier wallClock) {
        if (inputs.length != start.inputs()) {
            throw new IllegalArgumentException(inputs.length + " inputs but a state of " + start.inputs());
        }
        this.inputs = inputs.clone();
        this.maxWaitMillis = maxWaitMillis;
        this.holdBackMillis = holdBackMillis;
        this.wallClock = wallClock;
        this.positions = start.positions();
        this.last = start.last();
        this.emitted = start.emitted();
        this.givenUp = new boolean[inputs.length];
    }

    /** Settles up to {@code limit} records in merge order; says why it stopped. */
    public Halt advance(MergeOutput output, int limit, long now) throws Exception {
        long until = settled + limit;
        holdingUntil = Long.MAX_VALUE;
        long wallNow = wallClock.getAsLong();
        while (settled < until) {
            int best = -1;
            MergeKey bestKey = null;
            // the newest event time that may pass the inputs at their end: their ends were confirmed a moment ago,
            // and records their producers sent just before may not have been in their logs yet
            long passable = Long.MAX_VALUE;
            for (int i = 0; i < inputs.length; i++) {
                Arrival head = inputs[i].head(now);
                while (head != null && head.record().offset() < positions[i]) {
                    // read again after a seek (a partition handed back): settled already, never merged twice
                    inputs[i].take();
                    head = inputs[i].head(now);
                }
                while (head != null && head.problem() != null) {
                    // a record with no event time has no place in the order: settled as soon as it is the head
                    output.reject(i, head);
                    settle(i);
                    head = inputs[i].head(now);
                }
                if (head == null) {
                    passOffsetsWithoutRecords(i);
                    if (inputs[i].atEnd(now)) {
                        passable = Math.min(passable, wallNow - (now - inputs[i].endConfirmedAt()) - holdBackMillis);
                        continue;
                    }
                    if (silentTooLong(i, now)) {
                        continue;
                    }
                    waitingFor = i;
                    return Halt.WAITING;
                }
                givenUp[i] = false;
                MergeKey key = new MergeKey(head.time(), i, head.record().offset());
                if (bestKey == null || key.isBefore(bestKey)) {
                    best = i;
                    bestKey = key;
                }
            }
            waitingFor = -1;
            if (best < 0) {
                return Halt.IDLE;
            }
            if (held(bestKey.time(), passable)) {
                holdingUntil = now + HOLD_LOOK_MILLIS;
                return Halt.WAITING;
            }
            Arrival head = inputs[best].head(now);
            boolean late = bestKey.isBefore(last);
            boolean placed = output.emit(best, head, bestKey, late ? last : null);
            settle(best);
            if (!late && placed) {
                last = bestKey;
            }
            emitted++;
        }
        return Halt.LIMIT;
    }

    /**
     * Whether a record of event time {@code time} waits for a fresher confirmation of the ends it would pass: a live
     * merge emitted a record just newer than an input's last confirmed end (up to 3 s old), and that input's next
     * records, sent meanwhile, were late (10% of a live stream, a new user's run). Only recent records wait: one
     * newer than the confirmation by more than the hold-back (a producer's clock ahead) passes, or it could wait as
     * long as the clocks differ.
     */
    private boolean held(long time, long passable) {
        return passable != Long.MAX_VALUE && time > passable && time - passable <= 2 * holdBackMillis
                + InputBuffer.STALE_MILLIS;
    }

    private void settle(int input) {
        Arrival taken = inputs[input].take();
        positions[input] = taken.record().offset() + 1;
        settled++;
        moves++;
    }

    /**
     * With every record the reader gave taken and settled, the position moves on to the reader's: past transaction
     * markers and aborted records, which hold no record to merge. A merge of transactional inputs (a mirror's, an
     * exactly-once produce's) otherwise left each partition's committed position on its last marker, one short of
     * the end, and `sluice lag` never reached 0.
     */
    private boolean passOffsetsWithoutRecords(int input) {
        long readUpTo = inputs[input].readUpTo();
        if (readUpTo > positions[input]) {
            positions[input] = readUpTo;
            moves++;
            return true;
        }
        return false;
    }

    private boolean silentTooLong(int input, long now) {
        givenUp[input] = now - inputs[input].lastHeard() >= maxWaitMillis;
        return givenUp[input];
    }

    /** Exactly what was handed to the output so far (see the class comment). */
    public MergeState state() {
        return new MergeState(positions, last, emitted);
    }

    /** Records settled so far by this merge (emitted or rejected). */
    public long settled() {
        return settled;
    }

    /** How often the positions moved so far (a record settled, offsets without records passed): what a commit saves. */
    public long moves() {
        return moves;
    }

    /** Whether every input is at its end with nothing buffered (not merely given up): a bounded run is done. */
    public boolean finished(long now) {
        boolean finished = true;
        for (int i = 0; i < inputs.length; i++) {
            if (inputs[i].head(now) != null || !inputs[i].atEnd(now)) {
                finished = false;
            } else if (passOffsetsWithoutRecords(i)) {
                finished = false; // the pass it took just now is a move to commit before the run ends
            }
        }
        return finished;
    }

    /** The input the merge waits for after {@link Halt#WAITING}, or -1. */
    public int waitingFor() {
        return waitingFor;
    }

    /** Whether the merge goes on without {@code input} because it was silent for the longest wait. */
    public boolean givenUp(int input) {
        return givenUp[input];
    }

    /** When the merge should look again if nothing arrives: when the input it waits for would be given up. */
    public long wakeAt() {
        return Math.min(holdingUntil, waitingFor < 0 ? Long.MAX_VALUE : inputs[waitingFor].lastHeard() + maxWaitMillis);
    }
}
