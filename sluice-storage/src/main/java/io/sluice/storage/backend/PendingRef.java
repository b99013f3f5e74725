package io.sluice.storage.backend;

/**
 * A finished file that is not visible yet: where it will appear ({@code path}, relative to the sink's root) and how
 * the backend finds it until then ({@code staging}: a temporary path, or an S3 upload ID). Written into manifests.
 */
public record PendingRef(String path, String staging) {
}
