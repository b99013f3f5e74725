package io.sluice.storage.sink;

import io.sluice.storage.backend.StorageBackend;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one consumer group whose archive of a topic a location holds: {@code _sluice/groups/<topic id>/<group>}, written
 * at the first partition of the topic this group opens there. A partition's staging and manifests are the topic's in
 * the location, not a group's, so two groups archiving one topic into one location undo each other: each start
 * removes the staged files no commit of its own names, the other's files in progress among them (a new user's run: a
 * backfill group beside the live one, whose publish then failed and whose restart went on without the lost records).
 * A second group is refused before it touches anything, in words that name the first. Two groups starting at once both
 * write, both look again, and each that sees the other refuses and takes its name back.
 *
 * <p>Threading: any thread; each topic is claimed once per sink (the lanes of its partitions may ask at once).
 */
final class ArchiveOwner {

    private static final String ROOT = "_sluice/groups/";

    private final StorageBackend backend;
    private final String group;
    private final Set<String> claimed = ConcurrentHashMap.newKeySet();

    /** @param group the archiving consumer group, or null: no claim (an engine set up in-process, a benchmark) */
    ArchiveOwner(StorageBackend backend, String group) {
        this.backend = backend;
        this.group = group;
    }

    /**
     * Makes sure no other group archives {@code topic} here, and records this one.
     *
     * @throws AnotherArchiveException when another group does
     */
    void claim(String topic, String topicId) throws IOException {
        if (group == null || claimed.contains(topicId)) {
            return;
        }
        String dir = ROOT + topicId + "/";
        String encoded = URLEncoder.encode(group, StandardCharsets.UTF_8);
        String mine = dir + (encoded.startsWith(".") ? "%2E" + encoded.substring(1) : encoded); // never . or ..
        List<String> names = names(dir);
        refuseOthers(topic, names, mine);
        if (!names.contains(mine)) {
            backend.writeAtomically(mine, group.getBytes(StandardCharsets.UTF_8));
            List<String> after = names(dir);
            if (after.stream().anyMatch(n -> !n.equals(mine))) {
                backend.delete(mine); // both started at once: neither goes on
                refuseOthers(topic, after, mine);
            }
        }
        claimed.add(topicId);
    }

    /**
     * The groups' names under {@code dir}, without the temporary files of atomic writes under way ({@code .<name>.<uuid>
     * .tmp}: another lane of this group writing its name was taken for another group). Names never begin with a dot.
     */
    private List<String> names(String dir) throws IOException {
        return backend.list(dir).stream().filter(n -> !n.substring(n.lastIndexOf('/') + 1).startsWith(".")).toList();
    }

    private void refuseOthers(String topic, List<String> names, String mine) {
        for (String name : names) {
            if (!name.equals(mine)) {
                String other = URLDecoder.decode(name.substring(name.lastIndexOf('/') + 1), StandardCharsets.UTF_8);
                throw new AnotherArchiveException("consumer group '" + other + "' archives topic " + topic + " into "
                        + backend.describe() + " already (" + name + "): two groups archiving one topic into one "
                        + "location remove each other's files in progress, and records are lost. Give this pipeline a "
                        + "location of its own (sink.location), or run it as group '" + other + "'. If group '" + other
                        + "' no longer archives there, remove " + name + " and start again.");
            }
        }
    }

    /** Another consumer group archives the topic into this location. */
    static final class AnotherArchiveException extends IllegalStateException {
        AnotherArchiveException(String message) {
            super(message);
        }
    }
}
