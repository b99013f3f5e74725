package io.sluice.core.consumer;

import io.sluice.core.ledger.CompletionMap;
import java.util.Optional;

/**
 * The text the engine stores with each committed offset: a version tag, the completion map (handlers), and a sink's
 * checkpoint data (sinks): {@code sluice1:<map>} or {@code sluice1:<map>|<sink data>}. Metadata written by other
 * tools (or none) reads as "nothing complete beyond the offset, no sink data", which is the safe reading.
 */
public final class CommitMetadata {

    static final String PREFIX = "sluice1:";
    private static final char SINK_SEPARATOR = '|';

    private CommitMetadata() {
    }

    /** @param sinkData a sink's checkpoint data, or null when a handler runs */
    static String encode(CompletionMap map, String sinkData) {
        String encoded = map.encode();
        if (sinkData == null) {
            return encoded.isEmpty() ? "" : PREFIX + encoded;
        }
        return PREFIX + encoded + SINK_SEPARATOR + sinkData;
    }

    /** The records beyond a committed offset that are already done, as written by the engine in its commit. */
    public static CompletionMap decode(long offset, String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return CompletionMap.empty(offset);
        }
        String body = metadata.substring(PREFIX.length());
        int separator = body.indexOf(SINK_SEPARATOR);
        return CompletionMap.decode(offset, separator < 0 ? body : body.substring(0, separator));
    }

    /** The sink data of a commit the engine wrote for a sink, if any. */
    public static Optional<String> sinkData(String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int separator = metadata.indexOf(SINK_SEPARATOR, PREFIX.length());
        return separator < 0 ? Optional.empty() : Optional.of(metadata.substring(separator + 1));
    }
}
