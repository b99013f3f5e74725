package io.sluice.storage.audit;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.sink.Manifest;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The manifests of the audited topic ID, {@code _sluice/manifests/<topic id>/<partition>/<end offset>.json}, listed
 * per partition when first needed and read on demand (each once). Not every manifest was committed: a commit that
 * failed leaves its manifest behind, and its files were never published. Only the manifest a group's commit names is
 * known to be committed.
 *
 * <p>Threading: the audit's thread only.
 */
final class ManifestIndex {

    /** What reading one manifest gave: the manifest, or why it could not be read. */
    record Entry(String path, Manifest manifest, String problem) {
    }

    private final StorageBackend storage;
    private final String topicId;
    private final Map<Integer, NavigableMap<Long, String>> names = new HashMap<>();
    private final Map<String, Entry> read = new HashMap<>();

    ManifestIndex(StorageBackend storage, String topicId) {
        this.storage = storage;
        this.topicId = topicId;
    }

    /** The partition's manifests by end offset. */
    NavigableMap<Long, String> names(int partition) throws IOException {
        NavigableMap<Long, String> byEnd = names.get(partition);
        if (byEnd == null) {
            byEnd = new TreeMap<>();
            String directory = Manifest.directory(topicId, partition);
            for (String path : storage.list(directory)) {
                String name = SluiceFileName.fileNameOf(path);
                // skip what is not a manifest name, e.g. a temporary file of an atomic write
                if (name.matches("[0-9]{20}\\.json")) {
                    byEnd.put(Long.parseLong(name.substring(0, 20)), path);
                }
            }
            names.put(partition, byEnd);
        }
        return byEnd;
    }

    /** Reads a manifest by its name in the partition's directory; empty when there is no such manifest. */
    Optional<Entry> byName(int partition, String name) throws IOException {
        return entry(Manifest.directory(topicId, partition) + name);
    }

    /** Reads a manifest by its full path; empty when there is no such object. */
    Optional<Entry> entry(String path) throws IOException {
        Entry entry = read.get(path);
        if (entry == null) {
            Optional<byte[]> bytes = storage.read(path);
            if (bytes.isEmpty()) {
                return Optional.empty();
            }
            try {
                entry = new Entry(path, Manifest.fromJson(bytes.get(), path), null);
            } catch (IOException e) {
                entry = new Entry(path, null, e.getMessage());
            }
            read.put(path, entry);
        }
        return Optional.of(entry);
    }
}
