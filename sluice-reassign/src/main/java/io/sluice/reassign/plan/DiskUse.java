package io.sluice.reassign.plan;

/**
 * One log dir's bytes in use now, at the plan's peak (every incoming replica copied, no outgoing one deleted yet:
 * Kafka deletes the old replicas only when the whole partition's move completes) and after the plan.
 * {@code capacity} is the volume's size, or -1 when the broker does not report it.
 *
 * <p>Immutable.
 */
public record DiskUse(int broker, String logDir, long capacity, long now, long peak, long after) {

    public boolean capacityKnown() {
        return capacity > 0;
    }

    /** The peak as a fraction of the capacity (0 when unknown). */
    public double peakShare() {
        return capacityKnown() ? (double) peak / capacity : 0;
    }
}
