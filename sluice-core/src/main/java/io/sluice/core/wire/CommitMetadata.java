package io.sluice.core.wire;

import java.util.Optional;
import org.apache.kafka.common.Uuid;

/**
 * A wire format: the text the engine stores with each committed offset, which tools (the audit, {@code lag}) read: {@code sluice1:<topic id>:<completion map>[|<sink data>]}.
 * The topic ID tells a commit of a deleted topic from one of its namesake; the completion map lists records done
 * beyond the offset (handlers); the sink data is a sink's checkpoint (sinks). Metadata written by other tools, or
 * none, reads as "no topic ID known, nothing complete beyond the offset, no sink data", which is the safe reading.
 */
public final class CommitMetadata {

    static final String PREFIX = "sluice1:";
    private static final char SINK_SEPARATOR = '|';

    private CommitMetadata() {
    }

    /**
     * @param completionMap the encoded map of records done beyond the offset (empty text for none)
     * @param sinkData      a sink's checkpoint data, or null when a handler runs
     */
    public static String encode(Uuid topicId, String completionMap, String sinkData) {
        String text = PREFIX + topicId + ":" + completionMap;
        return sinkData == null ? text : text + SINK_SEPARATOR + sinkData;
    }

    /** The encoded map of records beyond the committed offset that are already done, if the engine wrote it. */
    public static Optional<String> completionMap(String metadata) {
        return Optional.ofNullable(field(metadata, 1));
    }

    /** The ID of the topic the commit was made for, if the engine wrote it. */
    public static Optional<Uuid> topicId(String metadata) {
        String id = field(metadata, 0);
        return id == null ? Optional.empty() : Optional.of(Uuid.fromString(id));
    }

    /** The sink data of a commit the engine wrote for a sink, if any. */
    public static Optional<String> sinkData(String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int separator = metadata.indexOf(SINK_SEPARATOR, PREFIX.length());
        return separator < 0 ? Optional.empty() : Optional.of(metadata.substring(separator + 1));
    }

    /** Field 0 is the topic ID, field 1 the completion map; null when the metadata is not the engine's. */
    private static String field(String metadata, int index) {
        if (metadata == null || !metadata.startsWith(PREFIX)) {
            return null;
        }
        String body = metadata.substring(PREFIX.length());
        int separator = body.indexOf(SINK_SEPARATOR);
        if (separator >= 0) {
            body = body.substring(0, separator);
        }
        String[] fields = body.split(":", 2);
        return fields.length == 2 ? fields[index] : null;
    }
}
