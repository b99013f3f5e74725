package io.sluice.storage.sink;

/** One file a manifest promises: where it appears, where it is staged, and which records it holds. */
public record ManifestFile(String path, String staging, long records, long bytes, long firstOffset, long lastOffset) {
}
