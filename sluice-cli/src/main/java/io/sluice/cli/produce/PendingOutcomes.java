package io.sluice.cli.produce;

import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.Origin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.common.KafkaException;

/**
 * The outcomes of the records in the open transaction, held back until it ends: a record written to a broker is not
 * done until its transaction commits (a read_committed reader never sees it otherwise). On commit every record is
 * acknowledged, its latency measured to the commit, except those that failed on their own (refused before they
 * joined the transaction); on abort every record is failed, those that failed on their own with their own reason.
 *
 * <p>Held without an object per record: a transaction holds a commit interval's records (a second's are hundreds of
 * thousands), and objects kept that long survive young collections and are copied at each. A callback held per record
 * cost the 2M-line import 1.9 s of collection pauses in a 17 s run, against 0.3 s without a transaction (issue 14). So
 * the send times go into an array reused from one transaction to the next (8 bytes a record of the open transaction:
 * 1.6 MB for a second of 200K records), the bytes are summed, and only the records that failed on their own and the
 * first few records' origins (what an abort's report names) are kept. The callback the producer gets lives until the
 * broker answers, as the producer's own per-record objects do.
 *
 * <p>Threading: {@link #sending}, {@link #committed} and {@link #aborted} on the thread that sends and commits; the
 * callbacks on the producer's I/O thread. What they share (the failures) is guarded by this object.
 */
final class PendingOutcomes {

    /** Kafka's producer's words for a commit refused after a send failed in the transaction. */
    private static final String IN_ERROR_STATE = "Cannot execute transactional method because we are in an error state";

    private final DeliveryTally tally;
    private long[] sentNanos = new long[1 << 12];
    private int records;
    private long bytes;
    /** The first records' origins, as many as the tally keeps failures: what an abort reports by name. */
    private final List<Origin> first = new ArrayList<>();
    /** Guarded by this. */
    private final List<OwnFailure> ownFailures = new ArrayList<>();
    /** The indexes of {@link #ownFailures}; guarded by this. */
    private final BitSet failedOnTheirOwn = new BitSet();

    PendingOutcomes(DeliveryTally tally) {
        this.tally = tally;
    }

    /** Counts a record as sent now; the callback for the producer keeps its failure until the transaction ends. */
    Callback sending(Origin origin, long size) {
        tally.sending(size);
        int index = records++;
        if (index == sentNanos.length) {
            sentNanos = Arrays.copyOf(sentNanos, index * 2);
        }
        sentNanos[index] = System.nanoTime();
        bytes += size;
        if (first.size() < tally.keptFailures()) {
            first.add(origin);
        }
        return (metadata, error) -> {
            if (error != null) {
                failedOnItsOwn(index, origin, size, error);
            }
        };
    }

    /** The transaction committed: every record in it is acknowledged, except those that failed on their own. */
    void committed() {
        long now = System.nanoTime();
        List<OwnFailure> failures = takeFailures();
        BitSet failed = passOn(failures);
        long failedBytes = failures.stream().mapToLong(OwnFailure::size).sum();
        for (int i = 0; i < records; i++) {
            if (!failed.get(i)) {
                tally.acknowledgedAfter(now - sentNanos[i]);
            }
        }
        tally.acknowledged(records - failures.size(), bytes - failedBytes);
        reset();
    }

    /**
     * The transaction did not commit: its records are not in the topic. Those that failed on their own (too large,
     * say) go first: the summary lists the first failures, which then show what broke the transaction rather than
     * records that were only in it.
     */
    void aborted(Exception cause) {
        List<OwnFailure> failures = takeFailures();
        // after a record's own failure the producer refuses the commit in words that say nothing of that record
        String why = !failures.isEmpty() && String.valueOf(cause.getMessage()).startsWith(IN_ERROR_STATE)
                ? "after " + failures.get(0).origin() + " failed in it" : cause.getMessage();
        KafkaException notCommitted = new KafkaException("not committed: its transaction was aborted (" + why + ")",
                cause);
        BitSet failed = passOn(failures);
        long named = 0;
        for (int i = 0; i < first.size(); i++) {
            if (!failed.get(i)) {
                tally.failed(first.get(i).toString(), notCommitted);
                named++;
            }
        }
        tally.failedUnlisted(records - failures.size() - named);
        reset();
    }

    /**
     * The transaction's commit was sent and had no clear answer (a timeout, an error the cluster does not explain):
     * it may have landed. Its records stay without an answer in the tally, neither acknowledged nor failed, except
     * those that failed on their own, which are in no transaction: a person who sent them again, believing them
     * failed, would double them if the commit landed.
     */
    void unknown() {
        passOn(takeFailures());
        reset();
    }

    /** Whether {@code error} is the producer refusing a commit because a send failed in its transaction. */
    static boolean refusedAfterAFailedSend(Exception error) {
        return String.valueOf(error.getMessage()).startsWith(IN_ERROR_STATE);
    }

    private synchronized void failedOnItsOwn(int index, Origin origin, long size, Exception error) {
        if (!failedOnTheirOwn.get(index)) { // a callback counts once, as the tally's own do
            failedOnTheirOwn.set(index);
            ownFailures.add(new OwnFailure(index, origin, size, error));
        }
    }

    /** Passes each failure of a record's own to the tally; returns their records' indexes. */
    private BitSet passOn(List<OwnFailure> failures) {
        BitSet indexes = new BitSet();
        for (OwnFailure f : failures) {
            tally.failed(f.origin.toString(), f.error);
            indexes.set(f.index);
        }
        return indexes;
    }

    private synchronized List<OwnFailure> takeFailures() {
        List<OwnFailure> taken = List.copyOf(ownFailures);
        ownFailures.clear();
        failedOnTheirOwn.clear();
        return taken;
    }

    private void reset() {
        records = 0;
        bytes = 0;
        first.clear();
    }

    private record OwnFailure(int index, Origin origin, long size, Exception error) {
    }
}
