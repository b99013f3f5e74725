package io.sluice.reassign.plan;

/**
 * One log directory of a broker as DescribeLogDirs reports it: the volume's size and free bytes (KIP-827; -1 when
 * the broker does not say) and the bytes of the replicas in it.
 *
 * <p>Immutable.
 */
public record LogDir(int broker, String path, long totalBytes, long usableBytes, long replicaBytes) {

    public boolean capacityKnown() {
        return totalBytes > 0 && usableBytes >= 0;
    }

    /**
     * Bytes in use on the volume now: everything that is not free, Kafka's or not, since anything else on the disk
     * fills it as well; the replicas' bytes alone when the broker does not report the volume.
     */
    public long usedBytes() {
        return capacityKnown() ? totalBytes - usableBytes : replicaBytes;
    }
}
