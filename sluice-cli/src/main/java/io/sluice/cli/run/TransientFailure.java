package io.sluice.cli.run;

import io.sluice.core.Causes;
import io.sluice.core.RecordsLostException;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.ConcurrentTransactionsException;
import org.apache.kafka.common.errors.CoordinatorLoadInProgressException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.LeaderNotAvailableException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.NotCoordinatorException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TransactionAbortableException;

/**
 * Whether an engine's failure is one a new engine cures, as a restart by a supervisor would: a cluster that did not
 * answer in time (a target down for longer than its producer waits, 60 s by default, ended the mirror with exit 1
 * even after it came back: a new user's run), a connection or a leader or coordinator that moved, a transaction the
 * cluster aborted meanwhile, brokers' names that did not resolve when a client was made again, or a producer fenced
 * by a newer one of the same transactional ID (the partition's new owner, or the coordinator's own abort after a
 * pause). A restart claims its partitions again and goes on from the committed offsets, so nothing is lost or copied
 * twice. Only these, by name: not every retriable Kafka error (a corrupt batch, too few in-sync replicas for the
 * topic's minimum, an unknown topic stay as they are however often the engine starts), not a refusal
 * (authorization, configuration), not records lost: those need a person.
 *
 * <p>Threading: stateless.
 */
public final class TransientFailure {

    private static final List<Class<? extends Throwable>> CURED_BY_A_RESTART = List.of(
            org.apache.kafka.common.errors.TimeoutException.class, java.util.concurrent.TimeoutException.class,
            NetworkException.class, NotLeaderOrFollowerException.class, LeaderNotAvailableException.class,
            NotCoordinatorException.class, CoordinatorNotAvailableException.class,
            CoordinatorLoadInProgressException.class, ConcurrentTransactionsException.class,
            TransactionAbortableException.class, InvalidProducerEpochException.class, ProducerFencedException.class);

    private TransientFailure() {
    }

    public static boolean is(Throwable failure) {
        for (Throwable cause : Causes.of(failure)) {
            if (cause instanceof RecordsLostException) {
                return false;
            }
            if (unresolvedBootstrap(cause)) {
                return true;
            }
            for (Class<? extends Throwable> cured : CURED_BY_A_RESTART) {
                if (cured.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A client made again could not resolve the brokers' names (Kafka's clients resolve them once, when made): names
     * that resolved at the command's first start, which probed the brokers, are a name service's hiccup.
     */
    private static boolean unresolvedBootstrap(Throwable cause) {
        return cause instanceof ConfigException && String.valueOf(cause.getMessage())
                .startsWith("No resolvable bootstrap urls");
    }
}
