package io.sluice.storage.rolling;

import java.util.stream.LongStream;

/**
 * The heap a sink's open files hold, as the sink accounts it: what {@link RollDecision} looks at to choose the
 * partition that rolls early under memory pressure.
 *
 * <p>Threading: any thread; the figures move while they are read, which the soft limit tolerates.
 */
public interface SinkHeap {

    /** Heap held by all open files of the sink. */
    long total();

    /** Each open partition's share of {@link #total}. */
    LongStream partitions();
}
