package io.sluice.storage.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one Kafka commit promises for one partition: the files that hold its records below {@code endOffset} and are
 * not known to be published yet (including those of earlier checkpoints whose commit outcome was unknown). Immutable
 * and written once, under {@code _sluice/manifests/<topic id>/<partition>/}{@link #name}; the commit's metadata
 * names it. Recovery publishes exactly the files of the last committed manifest.
 */
public record Manifest(int version, String topic, String topicId, int partition, long endOffset,
        List<ManifestFile> files) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static String directory(String topicId, int partition) {
        return "_sluice/manifests/" + topicId + "/" + partition + "/";
    }

    /**
     * {@code <end offset, 20 digits>-<writer>.json}: names sort by end offset, and two writers of the partition (the
     * owner and a zombie that lost it, both at the same barrier) never write the same name, so a zombie can never
     * replace the manifest the owner committed.
     */
    public static String name(long endOffset, String writer) {
        return String.format("%020d-%s.json", endOffset, writer);
    }

    /**
     * {@code summary-<end offset, 20 digits>-<writer>.json} ({@code level} 1), or {@code summary<level>-...} above: a
     * manifest of the same shape that took the place of older manifests (level 1) or of summaries one level below
     * ({@code ManifestRetention}), listing every file they listed; {@code endOffset} is the highest end offset among
     * them. No commit names a summary.
     */
    public static String summaryName(long endOffset, String writer, int level) {
        if (level < 1) {
            throw new IllegalArgumentException("a summary's level is 1 or more, not " + level);
        }
        return (level == 1 ? "summary-" : "summary" + level + "-") + name(endOffset, writer);
    }

    private static final Pattern NAME = Pattern.compile("(summary([1-9][0-9]{0,8})?-)?([0-9]{20})(-[0-9a-z]+)?\\.json");

    /**
     * The end offset in a manifest's or a summary's file name, or empty for anything else in a manifest directory
     * (such as the temporary file of an atomic write).
     */
    public static OptionalLong endOffsetOf(String fileName) {
        Matcher m = NAME.matcher(fileName);
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(3))) : OptionalLong.empty();
    }

    /** Whether the file name is a summary's ({@link #summaryName}). */
    public static boolean isSummary(String fileName) {
        return summaryLevel(fileName) > 0;
    }

    /** A summary's level ({@link #summaryName}), or 0 for a manifest or anything else. */
    public static int summaryLevel(String fileName) {
        Matcher m = NAME.matcher(fileName);
        if (!m.matches() || m.group(1) == null) {
            return 0;
        }
        return m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
    }

    public byte[] toJson() {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(this);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Manifest fromJson(byte[] json, String where) throws IOException {
        try {
            return JSON.readValue(json, Manifest.class);
        } catch (IOException e) {
            throw new IOException("manifest " + where + " is unreadable: " + e.getMessage(), e);
        }
    }
}
