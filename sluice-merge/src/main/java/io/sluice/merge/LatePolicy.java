package io.sluice.merge;

/** What happens to a record whose merge key is below the last one emitted. */
public enum LatePolicy {
    /** Emitted where it arrives, with the header {@code sluice.merge.late} (the last emitted time it falls behind). */
    FLAG,
    /** Written to the late topic (same partition number, modulo its count) in the same transaction. */
    SIDE_TOPIC,
    /** The merge stops with an error naming the record: for outputs that must be sorted without exception. */
    STOP
}
