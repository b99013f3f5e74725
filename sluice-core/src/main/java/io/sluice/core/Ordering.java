package io.sluice.core;

/** Which records must be processed one after another; everything else may run in parallel. */
public enum Ordering {
    /** One lane per partition: Kafka's own order, parallel only across partitions. */
    PARTITION,
    /** Records with equal keys run in offset order; different keys run in parallel. Null keys share one lane. */
    KEY,
    /** No order at all: every record may run in parallel with any other. */
    UNORDERED
}
