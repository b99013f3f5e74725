package io.sluice.core.consumer;

import java.util.concurrent.atomic.LongAdder;

/** Offset commits acknowledged and failed, counted by a {@link CommitPolicy}; read from any thread. */
final class CommitCounts {

    final LongAdder commits = new LongAdder();
    final LongAdder failures = new LongAdder();
}
