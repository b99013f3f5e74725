package io.sluice.core.consumer;

import io.sluice.core.ledger.CompletionMap;

/**
 * The text the engine stores with each committed offset: a version tag and the completion map. Metadata written by
 * other tools (or none) reads as "nothing complete beyond the offset", which is the safe reading.
 */
public final class CommitMetadata {

    static final String PREFIX = "sluice1:";

    private CommitMetadata() {
    }

    static String encode(CompletionMap map) {
        String encoded = map.encode();
        return encoded.isEmpty() ? "" : PREFIX + encoded;
    }

    /** The records beyond a committed offset that are already done, as written by the engine in its commit. */
    public static CompletionMap decode(long offset, String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return CompletionMap.empty(offset);
        }
        return CompletionMap.decode(offset, metadata.substring(PREFIX.length()));
    }
}
