package io.sluice.cli.produce;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;

/**
 * The outcomes of the records in the open transaction, held back until it ends: a record written to a broker is not
 * done until its transaction commits (a read_committed reader never sees it otherwise). On commit each record's own
 * outcome is passed on; on abort every record not already failed is failed with the abort's reason.
 *
 * <p>Threading: {@link #hold}'s callbacks run on the producer's I/O thread; the rest on the thread that commits.
 * Guarded by this object.
 */
final class PendingOutcomes {

    private List<Held> held = new ArrayList<>();

    /** The callback for the producer: it keeps the outcome until {@link #committed} or {@link #aborted}. */
    synchronized Callback hold(Callback next) {
        Held h = new Held(next);
        held.add(h);
        return h::keep;
    }

    /** The transaction committed: every record's own outcome goes on. */
    void committed() {
        for (Held h : take()) {
            h.deliver(null);
        }
    }

    /**
     * The transaction did not commit: its records are not in the topic. Those that failed on their own (too large,
     * say) go first: the summary lists the first failures, which then show what broke the transaction rather than
     * ten records that were only in it.
     */
    void aborted(Exception cause) {
        KafkaException notCommitted = new KafkaException("not committed: its transaction was aborted ("
                + cause.getMessage() + ")", cause);
        List<Held> taken = take();
        for (Held h : taken) {
            if (h.failedOnItsOwn()) {
                h.deliver(notCommitted);
            }
        }
        for (Held h : taken) {
            h.deliver(notCommitted); // once each: those delivered above are passed over
        }
    }

    private synchronized List<Held> take() {
        List<Held> taken = held;
        held = new ArrayList<>();
        return taken;
    }

    /** One record's outcome, kept until its transaction ends. */
    private static final class Held {
        private final Callback next;
        private RecordMetadata metadata;
        private Exception error;
        private boolean delivered;

        Held(Callback next) {
            this.next = next;
        }

        synchronized void keep(RecordMetadata m, Exception e) {
            metadata = m;
            error = e;
        }

        synchronized boolean failedOnItsOwn() {
            return error != null;
        }

        synchronized void deliver(Exception abort) {
            if (delivered) {
                return;
            }
            delivered = true;
            if (abort == null) {
                next.onCompletion(metadata, error);
            } else {
                next.onCompletion(null, error != null ? error : abort);
            }
        }
    }
}
