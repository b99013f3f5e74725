package io.sluice.audit;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.sink.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The manifests under {@code _sluice/manifests/<topic id>/<partition>/<end offset>-<writer>.json}, listed once when first
 * needed and read on demand (each once); those of the audited topic ID, and which other IDs had the same topic name. Not every manifest was committed: a commit that
 * failed leaves its manifest behind, and its files were never published. Only the manifest a group's commit names is
 * known to be committed.
 *
 * <p>Threading: the audit's thread only.
 */
final class ManifestIndex {

    /** What reading one manifest gave: the manifest, or why it could not be read. */
    record Entry(String path, Manifest manifest, String problem) {
    }

    private static final String ROOT = "_sluice/manifests/";

    private final StorageBackend storage;
    private final String topicId;
    /**
     * Every manifest under the root, by topic ID, partition and end offset (several writers may end at one offset: an
     * owner and a zombie); listed once, when first needed.
     */
    private Map<String, Map<Integer, NavigableMap<Long, List<String>>>> all;
    private final Map<String, Entry> read = new HashMap<>();

    ManifestIndex(StorageBackend storage, String topicId) {
        this.storage = storage;
        this.topicId = topicId;
    }

    /** The paths of the partition's manifests that end after {@code offset}, by end offset. */
    List<String> endingAfter(int partition, long offset) throws IOException {
        List<String> paths = new ArrayList<>();
        listed().getOrDefault(topicId, Map.of()).getOrDefault(partition, new TreeMap<>()).tailMap(offset, false)
                .values().forEach(paths::addAll);
        return paths;
    }

    /**
     * Topic IDs other than the audited one whose manifests name the audited topic: an earlier topic of the same
     * name (deleted and created again), whose files carry the same topic name and partitions in their rows.
     */
    Set<String> earlierTopicIds(String topic) throws IOException {
        Set<String> earlier = new TreeSet<>();
        for (Map.Entry<String, Map<Integer, NavigableMap<Long, List<String>>>> id : listed().entrySet()) {
            if (id.getKey().equals(topicId)) {
                continue;
            }
            for (NavigableMap<Long, List<String>> byEnd : id.getValue().values()) {
                Optional<Entry> first = byEnd.isEmpty() ? Optional.empty() : entry(byEnd.firstEntry().getValue().get(0));
                if (first.isPresent() && first.get().manifest() != null && topic.equals(first.get().manifest().topic())) {
                    earlier.add(id.getKey());
                }
                break; // one manifest tells which topic the ID was
            }
        }
        return earlier;
    }

    private Map<String, Map<Integer, NavigableMap<Long, List<String>>>> listed() throws IOException {
        if (all == null) {
            all = new HashMap<>();
            for (String path : storage.list(ROOT)) {
                // <topic id>/<partition>/<end offset>[-<writer>].json; anything else (a temporary file of an atomic
                // write) is skipped
                String[] parts = path.substring(ROOT.length()).split("/");
                if (parts.length == 3 && parts[1].matches("[0-9]{1,9}")
                        && parts[2].matches("[0-9]{20}(-[0-9a-z]+)?\\.json")) {
                    all.computeIfAbsent(parts[0], id -> new HashMap<>())
                            .computeIfAbsent(Integer.parseInt(parts[1]), p -> new TreeMap<>())
                            .computeIfAbsent(Long.parseLong(parts[2].substring(0, 20)), end -> new ArrayList<>())
                            .add(path);
                }
            }
        }
        return all;
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
