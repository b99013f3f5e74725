package io.sluice.core.internal.lane;

import io.sluice.core.LaneFunction;
import io.sluice.core.Ordering;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Picks the lane of a record within its partition: always lane 0 for {@link Ordering#PARTITION}, a hash of the key
 * bytes for {@link Ordering#KEY}, or the user's {@link LaneFunction}. {@link Ordering#UNORDERED} has no fixed lane
 * ({@link #UNORDERED_LANE}): such records wait in one queue per partition that every lane of it drains, so a stuck
 * record holds up nothing.
 *
 * <p>Threading: stateless; called on the consumer thread.
 */
public final class LaneRouter {

    /** Returned for {@link Ordering#UNORDERED}: any idle lane will do. */
    public static final int UNORDERED_LANE = -1;

    private final Ordering ordering;
    private final LaneFunction function;
    private final int lanes;

    public LaneRouter(Ordering ordering, LaneFunction function, int lanesPerPartition) {
        this.ordering = ordering;
        this.function = function;
        this.lanes = ordering == Ordering.PARTITION && function == null ? 1 : lanesPerPartition;
    }

    public int lanesPerPartition() {
        return lanes;
    }

    public int laneOf(ConsumerRecord<byte[], byte[]> record) {
        if (function != null) {
            return spread(function.lane(record));
        }
        return switch (ordering) {
            case PARTITION -> 0;
            case KEY -> record.key() == null ? 0 : spread(Arrays.hashCode(record.key()));
            case UNORDERED -> UNORDERED_LANE;
        };
    }

    private int spread(int hash) {
        int h = hash ^ (hash >>> 16);
        return Math.floorMod(h * 0x9E3779B9, lanes);
    }
}
