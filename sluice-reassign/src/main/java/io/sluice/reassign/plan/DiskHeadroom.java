package io.sluice.reassign.plan;

import java.util.List;

/**
 * The limit a plan's peak must stay under on every log dir: {@code --max-disk-use}, a share of the capacity the
 * brokers report. A log dir whose capacity is unknown is never over it.
 *
 * <p>Pure. Immutable.
 */
public record DiskHeadroom(double maxShare) {

    public DiskHeadroom {
        if (!(maxShare > 0 && maxShare <= 1)) {
            throw new IllegalArgumentException("the disk headroom must be above 0% and at most 100%, not "
                    + maxShare * 100 + "%");
        }
    }

    /**
     * The log dirs that receive replicas and whose peak is above the limit; empty when the plan fits. A log dir that
     * receives nothing cannot be flooded by the plan, whatever it holds now: refusing it (as this did) meant a broker
     * already over the limit could never be drained by the very moves that free it.
     */
    public List<DiskUse> exceeded(List<DiskUse> uses) {
        return uses.stream().filter(u -> u.capacityKnown() && u.peak() > u.now() && u.peakShare() > maxShare)
                .toList();
    }

    /** Log dirs that receive replicas and whose peak comes within {@code margin} of the limit. */
    public List<DiskUse> tight(List<DiskUse> uses, double margin) {
        return uses.stream().filter(u -> u.capacityKnown() && u.peak() > u.now()
                && u.peakShare() > maxShare - margin).toList();
    }

    public long limitBytes(DiskUse use) {
        return (long) (use.capacity() * maxShare);
    }
}
