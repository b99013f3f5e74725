package io.sluice.core.lane;

import io.sluice.core.LaneFunction;
import io.sluice.core.Ordering;
import java.util.Arrays;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Picks the lane of a record within its partition: always lane 0 for {@link Ordering#PARTITION}, a hash of the key
 * bytes for {@link Ordering#KEY}, the offset for {@link Ordering#UNORDERED} (consecutive records land in different
 * lanes), or the user's {@link LaneFunction}.
 *
 * <p>Threading: stateless; called on the consumer thread.
 */
public final class LaneRouter {

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
            case UNORDERED -> (int) Long.remainderUnsigned(record.offset(), lanes);
        };
    }

    private int spread(int hash) {
        int h = hash ^ (hash >>> 16);
        return Math.floorMod(h * 0x9E3779B9, lanes);
    }
}
