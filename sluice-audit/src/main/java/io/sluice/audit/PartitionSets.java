package io.sluice.audit;

/**
 * The set arithmetic of one partition, expected against found:
 * <pre>
 *   expected     = Kafka's read_committed offsets in [from, until) − dead-lettered
 *   missing      = expected − seen            duplicated = expected ∩ seen more than once
 *   exactly once = |expected ∩ seen| − |duplicated|
 * </pre>
 * and, for information, the offsets in files that are not expected: below the log start (Kafka no longer has them),
 * in the range but not in Kafka's committed view (compacted, aborted), dead-lettered as well, or outside the range.
 *
 * <p>Threading: one thread.
 */
final class PartitionSets {

    final OffsetSet deadLettered;
    final OffsetSet expected;
    final long notInCommittedView;
    OffsetSet missing;
    OffsetSet duplicated;
    long exactlyOnce;
    OffsetSet belowLogStart;
    OffsetSet archivedNotInCommittedView;
    OffsetSet deadLetteredAndArchived;
    long outsideRange;

    private final KafkaPartition kafka;

    PartitionSets(KafkaPartition kafka, OffsetSet deadLetters) {
        this.kafka = kafka;
        this.deadLettered = kafka.present.and(deadLetters);
        this.expected = kafka.present.andNot(deadLetters);
        this.notInCommittedView = (kafka.until - kafka.from) - kafka.present.size();
    }

    void compare(FoundPartition found) {
        OffsetSet covered = expected.and(found.seen);
        missing = expected.andNot(found.seen);
        duplicated = expected.and(found.seenAgain);
        exactlyOnce = covered.size() - duplicated.size();
        belowLogStart = found.seen.between(0, kafka.logStart() - 1);
        OffsetSet inRange = found.seen.between(kafka.from, kafka.until - 1);
        // from the log start as it is after the scan: retention that moved it during the scan left offsets unread,
        // which are not "not in the committed view" (they read as aborted records, and failed a right archive)
        archivedNotInCommittedView = inRange.between(Math.max(kafka.from, kafka.logStart()), kafka.until - 1)
                .andNot(kafka.present);
        deadLetteredAndArchived = deadLettered.and(found.seen);
        outsideRange = found.seen.size() - belowLogStart.size() - inRange.size()
                + inRange.between(0, kafka.logStart() - 1).size();
    }
}
