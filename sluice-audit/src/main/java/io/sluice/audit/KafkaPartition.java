package io.sluice.audit;

/**
 * What Kafka holds in the audited range of one partition: the offsets a read_committed consumer gets between
 * {@code from} and {@code until}. Offsets of the range it does not return are transaction markers, aborted records, or
 * records compaction removed; offsets below {@code logStart} are gone (retention, deleteRecords).
 *
 * <p>Threading: filled by the thread that scans Kafka, then read by the audit's thread after that scan completed.
 */
final class KafkaPartition {

    final int partition;
    final long requestedFrom;
    final long lastStable;
    /** The first audited offset: Kafka cannot be asked about anything below its log start. */
    final long from;
    final long until;
    final OffsetSet present = new OffsetSet();
    private final long plannedLogStart;
    private long logStart;

    KafkaPartition(int partition, long requestedFrom, long logStart, long lastStable, long until) {
        this.partition = partition;
        this.requestedFrom = requestedFrom;
        this.plannedLogStart = logStart;
        this.logStart = logStart;
        this.lastStable = lastStable;
        this.until = until;
        this.from = Math.min(Math.max(requestedFrom, logStart), until);
    }

    long logStart() {
        return logStart;
    }

    /** Whether retention moved the log start while the audit read the partition. */
    boolean logStartMovedDuringScan() {
        return logStart != plannedLogStart;
    }

    /** Retention moved the log start during the scan: offsets it removed before they were read look absent. */
    void logStartMoved(long newLogStart) {
        logStart = Math.max(logStart, newLogStart);
    }
}
