package io.sluice.bench.acks;

/**
 * What the producer said of each record of a trial, by its sequence number: acknowledged, failed, or nothing yet. A
 * record is counted by its first outcome only, as {@link io.sluice.producer.DeliveryTally} counts it.
 *
 * <p>Threading: written by the producer's I/O thread (its callbacks), read by the trial's thread; synchronized.
 */
final class Deliveries {

    private static final byte PENDING = 0;
    private static final byte ACKNOWLEDGED = 1;
    private static final byte FAILED = 2;

    private final byte[] outcomes;

    Deliveries(int records) {
        this.outcomes = new byte[records];
    }

    synchronized void record(int seq, boolean acknowledged) {
        if (outcomes[seq] == PENDING) {
            outcomes[seq] = acknowledged ? ACKNOWLEDGED : FAILED;
        }
    }

    synchronized boolean acknowledged(int seq) {
        return outcomes[seq] == ACKNOWLEDGED;
    }

    synchronized boolean failed(int seq) {
        return outcomes[seq] == FAILED;
    }
}
