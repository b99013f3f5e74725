package io.sluice.storage.sink;

import io.sluice.storage.backend.NameHash;
import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one consumer group whose archive of a topic a location holds. A partition's staging and manifests are the
 * topic's in the location, not a group's, so two groups archiving one topic into one location undo each other: each
 * start removes the staged files no commit of its own names, the other's files in progress among them (a new user's
 * run: a backfill group beside the live one, whose publish then failed and whose restart went on without the lost
 * records). A second group is refused before it touches anything, in words that name the first.
 *
 * <p>How: each sink that opens a partition of the topic writes a marker of its own,
 * {@code _sluice/groups/<topic id>/<hash of the group>/<time>-<uuid>} (the group's name inside: a name of any length
 * or script fits in a file name so), then lists them all; a marker of another group there refuses the start, and the
 * refused sink removes its own marker, never another's. Of two groups starting at once, the one that lists last sees
 * the other's marker, so never both go on; both may refuse, and a start again settles it. A running sink's marker is
 * never removed by another sink; a sink removes only its own group's markers older than its own, so the newest stays.
 *
 * <p>Threading: any thread; each topic is claimed once per sink, by the first lane that opens one of its partitions
 * (the others wait for that claim).
 */
final class ArchiveOwner {

    private static final String ROOT = "_sluice/groups/";

    private final StorageBackend backend;
    private final String group;
    private final String groupKey;
    private final ConcurrentHashMap<String, CompletableFuture<Void>> claims = new ConcurrentHashMap<>();

    /** @param group the archiving consumer group, or null: no claim (an engine set up in-process, a benchmark) */
    ArchiveOwner(StorageBackend backend, String group) {
        this.backend = backend;
        this.group = group;
        this.groupKey = group == null ? null : NameHash.of(group).substring(0, 32);
    }

    /**
     * Makes sure no other group archives {@code topic} here, and records this one.
     *
     * @throws AnotherArchiveException when another group does
     */
    void claim(String topic, String topicId) throws IOException {
        if (group == null) {
            return;
        }
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> claim = claims.putIfAbsent(topicId, mine);
        if (claim == null) {
            try {
                claimNow(topic, topicId);
                mine.complete(null);
            } catch (IOException | RuntimeException e) {
                claims.remove(topicId, mine); // the next partition to open tries again
                mine.completeExceptionally(e);
                throw e;
            }
            return;
        }
        try {
            claim.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof AnotherArchiveException refused) {
                throw new AnotherArchiveException(refused.getMessage());
            }
            throw new IOException("cannot start archiving topic " + topic + " in " + backend.describe() + ": "
                    + e.getCause().getMessage(), e.getCause());
        }
    }

    private void claimNow(String topic, String topicId) throws IOException {
        String dir = ROOT + topicId + "/";
        String marker = dir + groupKey + "/" + String.format("%020d", System.currentTimeMillis()) + "-"
                + UUID.randomUUID();
        backend.writeAtomically(marker, group.getBytes(StandardCharsets.UTF_8));
        List<String> markers = markers(dir);
        Optional<String> other = markers.stream().filter(m -> !keyOf(m, dir).equals(groupKey)).findFirst();
        if (other.isPresent()) {
            backend.delete(marker);
            String name = backend.read(other.get()).map(b -> new String(b, StandardCharsets.UTF_8))
                    .orElse("(a group whose marker just went)");
            String where = other.get().substring(0, other.get().lastIndexOf('/') + 1);
            throw new AnotherArchiveException("consumer group '" + name + "' archives topic " + topic + " into "
                    + backend.describe() + " already (" + where + "): two groups archiving one topic into one "
                    + "location remove each other's files in progress, and records are lost. Give this pipeline a "
                    + "location of its own (sink.location), or run it as group '" + name + "'. If group '" + name
                    + "' no longer archives there, remove " + where + " and start again.");
        }
        // this group's older markers, of runs that ended: the newest, this one, stays
        for (String m : markers) {
            if (keyOf(m, dir).equals(groupKey) && m.compareTo(marker) < 0) {
                backend.delete(m);
            }
        }
    }

    /**
     * The markers under {@code dir}: files two levels down, without the temporary files of atomic writes under way
     * ({@code .<name>.<uuid>.tmp}) or an object store's folder markers (keys ending in {@code /}).
     */
    private List<String> markers(String dir) throws IOException {
        try {
            return backend.list(dir).stream().filter(n -> {
                String rest = n.substring(dir.length());
                int slash = rest.indexOf('/');
                return slash > 0 && slash < rest.length() - 1 && rest.indexOf('/', slash + 1) < 0
                        && !rest.substring(slash + 1).startsWith(".");
            }).sorted().toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static String keyOf(String marker, String dir) {
        String rest = marker.substring(dir.length());
        return rest.substring(0, rest.indexOf('/'));
    }

    /** Another consumer group archives the topic into this location. */
    static final class AnotherArchiveException extends IllegalStateException {
        AnotherArchiveException(String message) {
            super(message);
        }
    }
}
