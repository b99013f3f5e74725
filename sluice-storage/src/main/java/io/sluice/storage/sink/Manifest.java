package io.sluice.storage.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

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
