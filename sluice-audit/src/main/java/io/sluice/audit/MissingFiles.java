package io.sluice.audit;

import io.sluice.storage.sink.ManifestFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Names the files behind missing offsets: manifests list each file with its offset span, so a file that a manifest
 * names for missing offsets and that is not visible is very likely the lost one. A hint, not proof: a manifest whose
 * commit failed names files that were never meant to appear.
 *
 * <p>Threading: the audit's thread only.
 */
final class MissingFiles {

    /** Manifests read per partition at most, from the first that can name a missing offset. */
    static final int MANIFESTS_LOOKED_AT = 200;

    private MissingFiles() {
    }

    static List<AuditReport.MissingFile> find(int partition, OffsetSet missing, ManifestIndex manifests,
            Set<String> visible, int limit) throws IOException {
        List<AuditReport.MissingFile> found = new ArrayList<>();
        if (missing.isEmpty()) {
            return found;
        }
        Set<String> named = new HashSet<>();
        int looked = 0;
        for (String path : manifests.endingAfter(partition, missing.next(0))) {
            if (++looked > MANIFESTS_LOOKED_AT || found.size() >= limit) {
                break;
            }
            var entry = manifests.entry(path);
            if (entry.isEmpty() || entry.get().manifest() == null) {
                continue;
            }
            for (ManifestFile f : entry.get().manifest().files()) {
                long next = missing.next(f.firstOffset());
                if (next >= 0 && next <= f.lastOffset() && !visible.contains(f.path()) && named.add(f.path())
                        && found.size() < limit) {
                    found.add(new AuditReport.MissingFile(f.path(), f.firstOffset(), f.lastOffset(), f.records(),
                            SluiceFileName.fileNameOf(path)));
                }
            }
        }
        return found;
    }
}
