package io.sluice.core;

/**
 * The engine's failure when records it was to process are gone (deleted by retention or compaction before it read
 * them, or the topic deleted and created again since its commit) and its {@link OutOfRangePolicy} is
 * {@link OutOfRangePolicy#FAIL}: it never skips them silently. {@link #lost} says which partitions and offsets, in
 * words; the message adds how to go on with the engine's own settings, which a command replaces with its own.
 */
public final class RecordsLostException extends IllegalStateException {

    private final String lost;

    public RecordsLostException(String lost, String advice) {
        super(lost + ". " + advice);
        this.lost = lost;
    }

    /** The partitions and the offsets lost, in words, without advice. */
    public String lost() {
        return lost;
    }
}
