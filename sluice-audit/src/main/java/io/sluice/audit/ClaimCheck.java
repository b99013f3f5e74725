package io.sluice.audit;

import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.sink.ManifestFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Files in formats whose rows carry no Kafka coordinates (raw bytes) cannot be read back offset by offset; their
 * manifests say which offsets they span and how many records they hold. Overlapping spans are taken together: when
 * the records the manifests count equal the expected offsets of the span no readable file holds, those offsets count
 * as covered; otherwise the span stays missing and a note says what the counts were.
 *
 * <p>A file's manifests can disagree about it: a crash after a manifest was written and before its commit leaves that
 * manifest, and the restart writes a file of the same name (the name carries its first offset) that rolled at another
 * moment, named by the committed manifest. Each manifest gives the file's size as written, so the entry whose size is
 * the visible file's is the committed one; the file stays unverifiable only when no entry, or more than one, has it
 * (it called every such file unverifiable, and verify failed on a right archive, seen in a review).
 *
 * <p>Threading: the audit's thread only.
 */
final class ClaimCheck {

    /** Manifests looked at after the one where a file first appears; a file is listed again only while its commit's outcome is unknown. */
    static final int MANIFESTS_PER_FILE = 64;

    /** A file with the span and record count its manifests give. */
    record Vouched(String path, long first, long last, long records) {
    }

    /** What a manifest says of a file's records, whatever its size. */
    private record Span(long records, long first, long last) {
    }

    final List<String> notes = new ArrayList<>();
    final List<AuditReport.StrangeFile> unverifiable = new ArrayList<>();
    long checkedFiles;
    private final StorageBackend storage;

    ClaimCheck(StorageBackend storage) {
        this.storage = storage;
    }

    /** Looks each claim up in the manifests, then marks the offsets the counts account for as seen in {@code found}. */
    void apply(int partition, List<ArchiveContents.Claim> claims, ManifestIndex manifests, OffsetSet expected,
            FoundPartition found) throws IOException {
        List<Vouched> vouched = new ArrayList<>();
        for (ArchiveContents.Claim claim : claims) {
            Map<Span, Set<Long>> entries = entries(partition, claim, manifests);
            if (entries.isEmpty()) {
                unverifiable.add(new AuditReport.StrangeFile(claim.path(), "its format stores no Kafka coordinates and "
                        + "no manifest names it (at-least-once mode writes none): its offsets cannot be checked"));
                continue;
            }
            // the size is all there is to check such a file's content by: one cut short or changed after its commit
            // passed on its manifest's counts alone (a review)
            long size = sizeOf(claim.path());
            List<Span> fit = entries.entrySet().stream().filter(e -> e.getValue().contains(size))
                    .map(Map.Entry::getKey).toList();
            if (fit.size() != 1) {
                unverifiable.add(new AuditReport.StrangeFile(claim.path(), fit.isEmpty()
                        ? "its format stores no Kafka coordinates, and its size, " + (size < 0
                                ? "none (it was listed, but was gone when it was read)" : size + " bytes")
                                + ", is not what its manifest" + (entries.size() == 1 ? " gives" : "s give") + " ("
                                + sizes(entries) + "): cut short or changed after it was written, its records cannot "
                                + "be vouched for"
                        : "its format stores no Kafka coordinates and its manifests disagree about it "
                                + entries.keySet() + ", and its size, " + size + " bytes, is that of " + fit.size()
                                + " of them: its offsets cannot be checked"));
                continue;
            }
            Span span = fit.get(0);
            if (entries.size() > 1) {
                notes.add(claim.path() + ": its manifests disagree about it (one was written by an attempt whose commit "
                        + "never came, as a crash leaves); the one that gives its size, " + size + " bytes, is taken: "
                        + span);
            }
            vouched.add(new Vouched(claim.path(), span.first(), span.last(), span.records()));
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

    /**
     * The distinct spans the manifests from the claimed path's first offset on give it, each with the sizes they give
     * (the staging reference differs between attempts; the offsets and counts are what matter).
     */
    private static Map<Span, Set<Long>> entries(int partition, ArchiveContents.Claim claim, ManifestIndex manifests)
            throws IOException {
        Map<Span, Set<Long>> entries = new LinkedHashMap<>();
        int looked = 0;
        for (String path : manifests.endingAfter(partition, claim.name().firstOffset())) {
            var entry = manifests.entry(path);
            if (entry.isPresent() && entry.get().manifest() != null) {
                for (ManifestFile f : entry.get().manifest().files()) {
                    if (f.path().equals(claim.path())) {
                        entries.computeIfAbsent(new Span(f.records(), f.firstOffset(), f.lastOffset()),
                                k -> new HashSet<>()).add(f.bytes());
                    }
                }
            }
            if (!entries.isEmpty() && ++looked >= MANIFESTS_PER_FILE) {
                break;
            }
        }
        return entries;
    }

    private static String sizes(Map<Span, Set<Long>> entries) {
        return entries.values().stream().flatMap(Set::stream).distinct().sorted().map(b -> b + " bytes")
                .collect(java.util.stream.Collectors.joining(" or "));
    }

    /**
     * The visible file's size, as the store gives it; -1 when it was listed but is gone. A storage failure stops the
     * audit, as reading any file does: it said "cut short or changed" of a file the store failed to hand over (a
     * review).
     */
    private long sizeOf(String path) throws IOException {
        try {
            return storage.size(path);
        } catch (java.nio.file.NoSuchFileException e) {
            return -1;
        }
    }
}
