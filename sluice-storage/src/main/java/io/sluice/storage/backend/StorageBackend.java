package io.sluice.storage.backend;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Storage as the archive sink needs it: files written invisibly and published later, idempotently, and small objects
 * (manifests) written atomically. Paths are relative to the backend's root and use {@code /}.
 *
 * <p>Threading: implementations are safe for concurrent use on different paths.
 */
public interface StorageBackend extends AutoCloseable {

    /**
     * Starts a file that will appear at {@code path} when published; it is staged under {@code stagingPrefix}, which
     * {@link #listStaged} lists for cleaning up what a crash left behind.
     */
    PendingFile create(String path, String stagingPrefix) throws IOException;

    /**
     * Makes a finished file visible at its path. Idempotent: publishing a published file does nothing.
     *
     * @return true when this call made the file visible, false when it was published before (a recovery publishing
     *     what an earlier run did, or a later manifest listing a file again), so that each file is counted once
     * @throws CommittedFileGoneException when the file is neither staged nor published (removed by something else)
     */
    boolean publish(PendingRef ref) throws IOException;

    /** Removes a staged file that will never be published. Idempotent. */
    void discard(PendingRef ref) throws IOException;

    /** Removes staged files that will never be published, such as those {@link #listStaged} found after a crash. */
    default void discardAll(List<PendingRef> refs) throws IOException {
        for (PendingRef ref : refs) {
            discard(ref);
        }
    }

    /**
     * Staged files under {@code stagingPrefix}, finished or not, each named exactly as it is now: {@link #discard} of a
     * ref removes that file and nothing begun after this listing (a recovery removes what it listed only after its
     * owner's first commit, when the owner may have started files of the same paths).
     */
    List<PendingRef> listStaged(String stagingPrefix) throws IOException;

    /** Writes a small object so that readers see all of it or nothing. */
    void writeAtomically(String path, byte[] content) throws IOException;

    Optional<byte[]> read(String path) throws IOException;

    /** Removes a small object written by {@link #writeAtomically} (a manifest that is no longer needed). Idempotent. */
    void delete(String path) throws IOException;

    /**
     * Copies a visible file to a local path, for readers that need random access (Parquet footers, Avro sync
     * markers) and for the audit. Throws {@link java.nio.file.NoSuchFileException} when the file is not there.
     */
    void download(String path, java.nio.file.Path target) throws IOException;

    /**
     * The size in bytes of a visible file, asked of the store without reading the file (the audit checks files whose
     * rows carry no coordinates by their size: it downloaded each, a whole archive's bytes from an object store).
     * Throws {@link java.nio.file.NoSuchFileException} when the file is not there.
     */
    long size(String path) throws IOException;

    /** Visible files under {@code prefix}, recursively, as relative paths. */
    List<String> list(String prefix) throws IOException;

    /**
     * The longest name one folder or file may have here, in UTF-8 bytes: file systems take 255 (a longer one failed a
     * run with "File name too long" at every start); an object store limits only a key as a whole.
     */
    default int maxNameBytes() {
        return Integer.MAX_VALUE;
    }

    /** A description for messages, e.g. {@code file:/data/archive}. */
    String describe();

    /**
     * How long requests have waited with no answer from the store, once that is an outage (15 s), for a store whose
     * requests ride out an outage by retrying (S3); empty otherwise, and always for a store that fails a request at
     * once (files, HDFS).
     */
    default Optional<Duration> silentFor() {
        return Optional.empty();
    }

    /**
     * How {@code failure} (or one of its causes) shows this store away, in words ("connection refused"): down,
     * unreachable, starting up, or past its retries; empty when it does not. A service that failed so starts again once
     * the store answers, from its last commit; a refusal (no permission, a quota, a file gone, a full local disk) needs
     * a person, so it is not an outage. Only what the store names as such: an unknown failure is not.
     */
    default Optional<String> outage(Throwable failure) {
        return Optional.empty();
    }

    @Override
    default void close() throws IOException {
    }
}
