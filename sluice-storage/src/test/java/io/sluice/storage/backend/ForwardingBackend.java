package io.sluice.storage.backend;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A real store behind a test's fault or watch: every call goes to it unless the test overrides the one it cares about.
 *
 * <p>Threading: the store's.
 */
public class ForwardingBackend implements StorageBackend {

    private final StorageBackend store;

    public ForwardingBackend(StorageBackend store) {
        this.store = store;
    }

    @Override
    public PendingFile create(String path, String stagingPrefix) throws IOException {
        return store.create(path, stagingPrefix);
    }

    @Override
    public boolean publish(PendingRef ref) throws IOException {
        return store.publish(ref);
    }

    @Override
    public void discard(PendingRef ref) throws IOException {
        store.discard(ref);
    }

    @Override
    public List<PendingRef> listStaged(String stagingPrefix) throws IOException {
        return store.listStaged(stagingPrefix);
    }

    @Override
    public void writeAtomically(String path, byte[] content) throws IOException {
        store.writeAtomically(path, content);
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        return store.read(path);
    }

    @Override
    public void delete(String path) throws IOException {
        store.delete(path);
    }

    @Override
    public void download(String path, Path target) throws IOException {
        store.download(path, target);
    }

    @Override
    public long size(String path) throws IOException {
        return store.size(path);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return store.list(prefix);
    }

    @Override
    public String describe() {
        return store.describe();
    }
}
