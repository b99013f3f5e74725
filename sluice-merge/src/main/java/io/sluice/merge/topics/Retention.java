package io.sluice.merge.topics;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.TopicConfig;

/**
 * How long and how much the inputs' topics keep, for the topics a merge writes: the longest time any input keeps a
 * record ({@code retention.ms}, -1 for ever) and, per partition, the bytes all inputs keep together
 * ({@code retention.bytes}: output partition p holds partition p of every input; -1 when any keeps all). Kafka deletes
 * by the records' own timestamps, and a merge keeps them: an output kept shorter than an input loses the input's old
 * records as soon as they are written.
 *
 * <p>Immutable.
 */
record Retention(long millis, String longestInput, long bytes) {

    /** Before any input: nothing kept yet. */
    static final Retention NONE = new Retention(0, null, 0);

    /** With the topic of input {@code name}, which keeps records {@code ms} and {@code bytesKept} bytes (-1: all). */
    Retention and(String name, long ms, long bytesKept) {
        boolean longer = millis >= 0 && (ms < 0 || ms > millis);
        long together = bytes < 0 || bytesKept < 0 ? -1 : bytes + bytesKept;
        return new Retention(longer ? ms : millis, longer || longestInput == null ? name : longestInput, together);
    }

    /** The settings of a topic the merge creates: it keeps what the inputs keep. */
    Map<String, String> topicConfig() {
        Map<String, String> config = new HashMap<>();
        config.put(TopicConfig.RETENTION_MS_CONFIG, Long.toString(millis));
        config.put(TopicConfig.RETENTION_BYTES_CONFIG, Long.toString(bytes));
        return config;
    }

    /**
     * A warning when {@code topic}, which exists and keeps records {@code ms} (-1: for ever), keeps them shorter than
     * an input does; empty otherwise.
     */
    Optional<String> shorterIn(String topic, long ms) {
        if (ms < 0 || (millis >= 0 && ms >= millis)) {
            return Optional.empty();
        }
        return Optional.of("the output topic '" + topic + "' keeps records for " + Duration.ofMillis(ms).toDays()
                + " days (retention.ms=" + ms + "), and input '" + longestInput + "' keeps them "
                + (millis < 0 ? "for ever" : "for " + Duration.ofMillis(millis).toDays() + " days")
                + ": Kafka deletes by the records' own timestamps, so merged records older than that are deleted as "
                + "soon as they are written. Give the output topic a longer retention.ms if they are to stay");
    }
}
