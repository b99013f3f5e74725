package io.sluice.producer;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link DeliveryTally} had counted at one moment.
 *
 * @param firstFailures the first failures, as many as the tally keeps
 * @param ackP50        the median time from send to acknowledgement (within 6.25%), zero before the first one
 * @param ackP99        the 99th percentile of the same
 * @param ackMax        the longest
 */
public record DeliverySnapshot(long sent, long acknowledged, long failed, long bytesSent, long bytesAcknowledged,
        List<DeliveryFailure> firstFailures, Duration ackP50, Duration ackP99, Duration ackMax) {

    public DeliverySnapshot {
        firstFailures = List.copyOf(firstFailures);
    }

    /** Records sent and not yet acknowledged or failed. */
    public long pending() {
        return sent - acknowledged - failed;
    }
}
