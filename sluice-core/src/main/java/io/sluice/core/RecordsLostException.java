package io.sluice.core;

import java.util.List;
import org.apache.kafka.common.TopicPartition;

/**
 * The engine's failure when records it was to process are gone (deleted by retention or compaction before it read
 * them, or the topic deleted and created again since its commit) and its {@link OutOfRangePolicy} is
 * {@link OutOfRangePolicy#FAIL} or {@link OutOfRangePolicy#STOP_PARTITION}: it never skips them silently. {@link #lost}
 * says which partitions and offsets, in words, and {@link #losses} the same as figures, from which a command can write
 * the exact way on; the message adds how to go on with the engine's own settings, which a command replaces with its own.
 */
public final class RecordsLostException extends IllegalStateException {

    /** How a partition's records were lost. */
    public enum Kind {
        /** Offsets from {@link Loss#at} up to {@link Loss#logStart} were deleted before they were processed. */
        DELETED,
        /** The position {@link Loss#at} is past the log's end: the topic was created again or truncated. */
        PAST_END,
        /** The commit at {@link Loss#at} was made for an earlier topic of the same name. */
        RECREATED
    }

    /**
     * One partition's loss.
     *
     * @param at       where the partition's progress stands: the first offset lost, or the commit of the other topic
     * @param logStart the first offset the log holds now (where processing can go on, past the loss), or -1 when not
     *                 asked
     */
    public record Loss(TopicPartition partition, Kind kind, long at, long logStart) {
    }

    private final String lost;
    private final List<Loss> losses;

    public RecordsLostException(String lost, String advice) {
        this(lost, advice, List.of());
    }

    public RecordsLostException(String lost, String advice, List<Loss> losses) {
        super(lost + ". " + advice);
        this.lost = lost;
        this.losses = List.copyOf(losses);
    }

    /** The partitions and the offsets lost, in words, without advice. */
    public String lost() {
        return lost;
    }

    /** The same as figures, one per partition; empty when the engine could not tell them apart. */
    public List<Loss> losses() {
        return losses;
    }
}
