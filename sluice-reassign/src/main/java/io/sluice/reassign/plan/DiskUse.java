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

    /**
     * A share of a disk as people read it: "87.5%", and finer below one percent ("0.042%"), where small moves on a large
     * volume sit (0.0% said nothing).
     */
    public static String percent(double share) {
        return String.format(java.util.Locale.ROOT, share < 0.01 ? "%.3f%%" : "%.1f%%", share * 100);
    }
}
