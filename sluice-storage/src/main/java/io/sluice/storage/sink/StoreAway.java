package io.sluice.storage.sink;

/**
 * The words for a store that is away ({@link io.sluice.storage.backend.StorageBackend#outage}), one phrasing wherever
 * the archive says it.
 *
 * <p>Threading: stateless.
 */
final class StoreAway {

    private StoreAway() {
    }

    /** @param how the store's own word for it, e.g. "connection refused" */
    static String words(String how) {
        return "the store does not answer (" + how + "): it is down, unreachable or starting up";
    }
}
