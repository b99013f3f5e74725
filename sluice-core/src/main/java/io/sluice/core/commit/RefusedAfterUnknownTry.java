package io.sluice.core.commit;

import io.sluice.core.ErrorWords;
import org.apache.kafka.common.KafkaException;

/**
 * A synchronous commit refused by the coordinator, where an earlier try of the same commit may have landed: Kafka's
 * {@code commitSync} sends the commit again after a lost answer or a timed-out request, and a commit point may try
 * again itself after a timeout; a refusal of the later try (the group began to rebalance meanwhile) says nothing of
 * the first. Read as certain, the sink gave up the files of a
 * commit the group may hold, and the next owner's recovery found them gone. Never a certain refusal: what the commit
 * promised stays for the next owner's recovery, which publishes it or removes it by the commit it reads.
 *
 * <p>Immutable.
 */
public final class RefusedAfterUnknownTry extends KafkaException {

    public RefusedAfterUnknownTry(RuntimeException refusal) {
        super(ErrorWords.of(refusal), refusal);
    }
}
