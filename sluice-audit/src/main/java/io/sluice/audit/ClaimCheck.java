package io.sluice.audit;

import io.sluice.storage.sink.ManifestFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Files in formats whose rows carry no Kafka coordinates (raw bytes) cannot be read back offset by offset; their
 * manifests say which offsets they span and how many records they hold. Overlapping spans are taken together: when
 * the records the manifests count equal the expected offsets of the span no readable file holds, those offsets count
 * as covered; otherwise the span stays missing and a note says what the counts were.
 *
 * <p>Threading: the audit's thread only.
 */
final class ClaimCheck {

    /** Manifests looked at after the one where a file first appears; a file is listed again only while its commit's outcome is unknown. */
    static final int MANIFESTS_PER_FILE = 64;

    /** A file with the span and record count its manifests give. */
    record Vouched(String path, long first, long last, long records) {
    }

    final List<String> notes = new ArrayList<>();
    final List<AuditReport.StrangeFile> unverifiable = new ArrayList<>();
    long checkedFiles;

    /** Looks each claim up in the manifests, then marks the offsets the counts account for as seen in {@code found}. */
    void apply(int partition, List<ArchiveContents.Claim> claims, ManifestIndex manifests, OffsetSet expected,
            FoundPartition found) throws IOException {
        List<Vouched> vouched = new ArrayList<>();
        for (ArchiveContents.Claim claim : claims) {
            Set<ManifestFile> entries = entries(partition, claim, manifests);
            if (entries.isEmpty()) {
                unverifiable.add(new AuditReport.StrangeFile(claim.path(), "its format stores no Kafka coordinates and "
                        + "no manifest names it (at-least-once mode writes none): its offsets cannot be checked"));
            } else if (entries.size() > 1) {
                unverifiable.add(new AuditReport.StrangeFile(claim.path(), "its format stores no Kafka coordinates and "
                        + "its manifests disagree about it " + entries + ": its offsets cannot be checked"));
            } else {
                ManifestFile f = entries.iterator().next();
                vouched.add(new Vouched(claim.path(), f.firstOffset(), f.lastOffset(), f.records()));
            }
        }
        vouched.sort(Comparator.comparingLong(Vouched::first));
        int i = 0;
        while (i < vouched.size()) {
            long first = vouched.get(i).first();
            long last = vouched.get(i).last();
            long records = 0;
            List<String> paths = new ArrayList<>();
            while (i < vouched.size() && vouched.get(i).first() <= last) {
                last = Math.max(last, vouched.get(i).last());
                records += vouched.get(i).records();
                paths.add(vouched.get(i).path());
                i++;
            }
            OffsetSet open = expected.between(first, last).andNot(found.seen);
            checkedFiles += paths.size();
            if (records == open.size()) {
                found.seen.addAll(open);
                found.rows += records;
            } else {
                notes.add(paths.size() + " file(s) without coordinates (" + String.join(", ", paths) + ") span offsets "
                        + first + "–" + last + " and hold " + records + " records by their manifests, but "
                        + open.size() + " expected offsets there are in no other file: which are missing or "
                        + "duplicated cannot be told, so they count as missing");
            }
        }
    }

    /** The distinct entries for the claimed path in the manifests from its first offset on. */
    private static Set<ManifestFile> entries(int partition, ArchiveContents.Claim claim, ManifestIndex manifests)
            throws IOException {
        Set<ManifestFile> entries = new HashSet<>();
        int looked = 0;
        for (String path : manifests.endingAfter(partition, claim.name().firstOffset())) {
            var entry = manifests.entry(path);
            if (entry.isPresent() && entry.get().manifest() != null) {
                for (ManifestFile f : entry.get().manifest().files()) {
                    if (f.path().equals(claim.path())) {
                        // the staging reference differs between attempts; the offsets and counts are what matter
                        entries.add(new ManifestFile(f.path(), "", f.records(), 0, f.firstOffset(), f.lastOffset()));
                    }
                }
            }
            if (!entries.isEmpty() && ++looked >= MANIFESTS_PER_FILE) {
                break;
            }
        }
        return entries;
    }
}
