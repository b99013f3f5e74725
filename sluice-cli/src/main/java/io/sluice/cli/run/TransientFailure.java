package io.sluice.cli.run;

import io.sluice.core.RecordsLostException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TransactionAbortableException;

/**
 * Whether an engine's failure is one a new engine cures, as a restart by a supervisor would: a cluster that did not
 * answer in time (a target down for longer than its producer waits, 60 s by default, ended the mirror with exit 1
 * even after it came back: a new user's run), a transaction the cluster aborted meanwhile, or a producer fenced by a
 * newer one of the same transactional ID (the partition's new owner, or the coordinator's own abort after a pause).
 * A restart claims its partitions again and goes on from the committed offsets, so nothing is lost or copied twice.
 * Not a refusal (authorization, configuration), and not records lost: those need a person.
 *
 * <p>Threading: stateless.
 */
public final class TransientFailure {

    private TransientFailure() {
    }

    public static boolean is(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof RecordsLostException) {
                return false;
            }
            if (cause instanceof RetriableException || cause instanceof java.util.concurrent.TimeoutException
                    || cause instanceof TransactionAbortableException
                    || cause instanceof InvalidProducerEpochException || cause instanceof ProducerFencedException) {
                return true;
            }
        }
        return false;
    }
}
