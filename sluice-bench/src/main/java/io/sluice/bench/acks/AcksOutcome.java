package io.sluice.bench.acks;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one acks trial counted: the producer's word on every record against what a read_committed reader found.
 *
 * @param records                the records sent, numbered 0 to records - 1
 * @param acknowledged           records whose send succeeded (with acks=0: left for the network, nothing more)
 * @param acknowledgedLost       acknowledged records that are not in the topic: the loss an application never hears of
 * @param unacknowledged         records whose send was reported failed
 * @param unacknowledgedPresent  failed records that are in the topic anyway (an application retrying them doubles them)
 * @param pending                records with no outcome when the producer was flushed: never, for a working producer
 * @param duplicates             copies beyond the first, over all records
 * @param seconds                from the first send to the last outcome, the outage included
 * @param inFlightAtKill         records sent and not yet answered when the leader was killed
 * @param acknowledgedAfterKill  records acknowledged after the kill: the producer went on through the failover
 * @param killedBroker           the broker killed, the one leading most partitions
 * @param firstFailure           the first failure, as the producer reported it, or null
 */
public record AcksOutcome(String mode, int records, long acknowledged, long acknowledgedLost, long unacknowledged,
        long unacknowledgedPresent, long pending, long duplicates, double seconds, double ackP50Millis,
        double ackP99Millis, long inFlightAtKill, long acknowledgedAfterKill, int killedBroker, String firstFailure) {

    public double recordsPerSec() {
        return records / seconds;
    }

    /** The figures as the benchmark's report reads them (numbers), the first failure as text. */
    public Map<String, Object> figures() {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("records_per_sec", recordsPerSec());
        f.put("sent", records);
        f.put("acknowledged", acknowledged);
        f.put("acknowledged_lost", acknowledgedLost);
        f.put("unacknowledged", unacknowledged);
        f.put("unacknowledged_present", unacknowledgedPresent);
        f.put("pending", pending);
        f.put("duplicates", duplicates);
        f.put("seconds", seconds);
        f.put("ack_p50_ms", ackP50Millis);
        f.put("ack_p99_ms", ackP99Millis);
        f.put("in_flight_at_kill", inFlightAtKill);
        f.put("acknowledged_after_kill", acknowledgedAfterKill);
        f.put("killed_broker", Integer.toString(killedBroker)); // text: not a figure to take the median of
        if (firstFailure != null) {
            f.put("first_failure", firstFailure);
        }
        return f;
    }
}
