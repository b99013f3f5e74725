package io.sluice.storage.sink;

import io.sluice.storage.backend.PendingRef;

/** One file a manifest promises: where it appears, where it is staged, and which records it holds. */
public record ManifestFile(String path, String staging, long records, long bytes, long firstOffset, long lastOffset) {

    /** The staged file, as the backend publishes or discards it. */
    PendingRef ref() {
        return new PendingRef(path, staging);
    }
}
