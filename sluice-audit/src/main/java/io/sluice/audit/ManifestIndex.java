package io.sluice.audit;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.sink.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The manifests under {@code _sluice/manifests/<topic id>/<partition>/<end offset>-<writer>.json}, and the summaries
 * that took the place of older ones ({@code summary[<level>]-<end offset>-<writer>.json}, same shape), listed once
 * when first needed and read on demand (each once); those of the audited topic ID, which other IDs had the same topic
 * name, and which files the manifests of a topic name. Not every manifest was committed: a commit that failed leaves its
 * manifest behind, and its files were never published (they were removed, or listed again by the next manifest). Only
 * the manifest a group's commit names is known to be committed.
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
    /** The topic name each topic ID's manifests give (null when none could be read), by topic ID. */
    private Map<String, String> topics;
    /** By topic name: every path the manifests and summaries of its topic IDs name. */
    private final Map<String, Set<String>> named = new HashMap<>();

    ManifestIndex(StorageBackend storage, String topicId) {
        this.storage = storage;
        this.topicId = topicId;
    }

    /** Whether the location holds any manifest at all, of any topic. */
    boolean any() throws IOException {
        return !listed().isEmpty();
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
        for (Map.Entry<String, String> id : topics().entrySet()) {
            if (!id.getKey().equals(topicId) && topic.equals(id.getValue())) {
                earlier.add(id.getKey());
            }
        }
        return earlier;
    }

    /** Whether any topic ID of this name has manifests here: it was archived exactly once. */
    boolean hasManifests(String topic) throws IOException {
        return topics().containsValue(topic);
    }

    /**
     * Every path that a manifest or summary of a topic of this name names. A file becomes visible only when a commit
     * naming a manifest that lists it succeeded, so a visible file of the topic that none of them names was not put
     * there by the archiver.
     */
    Set<String> namedPaths(String topic) throws IOException {
        Set<String> paths = named.get(topic);
        if (paths == null) {
            paths = new HashSet<>();
            if (!collectNamed(topic, paths)) {
                // a manifest listed was gone when read: a running archiver folded it into a summary written after the
                // listing (it writes the summary before it removes what it holds), so the listing is taken again
                all = null;
                topics = null;
                collectNamed(topic, paths);
            }
            named.put(topic, paths);
        }
        return paths;
    }

    /** Adds the paths the topic's manifests name; false when a manifest listed was gone when read. */
    private boolean collectNamed(String topic, Set<String> paths) throws IOException {
        boolean complete = true;
        for (Map.Entry<String, String> id : topics().entrySet()) {
            if (!topic.equals(id.getValue())) {
                continue;
            }
            for (NavigableMap<Long, List<String>> byEnd : listed().get(id.getKey()).values()) {
                for (List<String> manifests : byEnd.values()) {
                    for (String manifest : manifests) {
                        // read without keeping: a long archive's manifests together are large
                        Optional<Entry> entry = read.containsKey(manifest) ? Optional.of(read.get(manifest))
                                : parse(manifest);
                        if (entry.isEmpty()) {
                            complete = false;
                        } else if (entry.get().manifest() != null) {
                            entry.get().manifest().files().forEach(f -> paths.add(f.path()));
                        }
                    }
                }
            }
        }
        return complete;
    }

    private Map<String, String> topics() throws IOException {
        if (topics == null) {
            topics = new HashMap<>();
            for (Map.Entry<String, Map<Integer, NavigableMap<Long, List<String>>>> id : listed().entrySet()) {
                String name = null;
                for (NavigableMap<Long, List<String>> byEnd : id.getValue().values()) {
                    Optional<Entry> first = byEnd.isEmpty() ? Optional.empty() : entry(byEnd.firstEntry().getValue().get(0));
                    if (first.isPresent() && first.get().manifest() != null) {
                        name = first.get().manifest().topic();
                        break; // one manifest tells which topic the ID was
                    }
                }
                topics.put(id.getKey(), name);
            }
        }
        return topics;
    }

    private Map<String, Map<Integer, NavigableMap<Long, List<String>>>> listed() throws IOException {
        if (all == null) {
            all = new HashMap<>();
            for (String path : storage.list(ROOT)) {
                // <topic id>/<partition>/[summary[<level>]-]<end offset>[-<writer>].json; anything else (a temporary
                // file of an atomic write) is skipped. A summary sits among the manifests by its end offset: every file
                // it lists ends below it, as in the manifests it replaced
                String[] parts = path.substring(ROOT.length()).split("/");
                OptionalLong end = parts.length == 3 ? Manifest.endOffsetOf(parts[2]) : OptionalLong.empty();
                if (end.isPresent() && parts[1].matches("[0-9]{1,9}")) {
                    all.computeIfAbsent(parts[0], id -> new HashMap<>())
                            .computeIfAbsent(Integer.parseInt(parts[1]), p -> new TreeMap<>())
                            .computeIfAbsent(end.getAsLong(), e -> new ArrayList<>())
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
            Optional<Entry> parsed = parse(path);
            if (parsed.isEmpty()) {
                return Optional.empty();
            }
            entry = parsed.get();
            read.put(path, entry);
        }
        return Optional.of(entry);
    }

    private Optional<Entry> parse(String path) throws IOException {
        Optional<byte[]> bytes = storage.read(path);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Entry(path, Manifest.fromJson(bytes.get(), path), null));
        } catch (IOException e) {
            return Optional.of(new Entry(path, null, e.getMessage()));
        }
    }
}
