package io.sluice.core.wire;

/**
 * A wire format: the headers the engine adds to a record it dead-letters, beside the record's own key, value and
 * headers. Tools that reconcile a dead-letter topic with its source (the audit) read them.
 */
public final class DeadLetterHeaders {

    /** Java class of the last failure. */
    public static final String ERROR_CLASS = "sluice.error.class";
    /** The last failure's message. */
    public static final String ERROR_MESSAGE = "sluice.error.message";
    /** Where the record came from: topic, partition and offset (decimal text). */
    public static final String SOURCE_TOPIC = "sluice.source.topic";
    public static final String SOURCE_PARTITION = "sluice.source.partition";
    public static final String SOURCE_OFFSET = "sluice.source.offset";
    /**
     * The source topic's ID (Kafka's, as text): a topic deleted and created again under the same name has a new one,
     * and its offsets start again, so an audit of the new topic must not take the old topic's letters for its own.
     * Absent on letters written before 2026-12-03.
     */
    public static final String SOURCE_TOPIC_ID = "sluice.source.topic.id";
    /**
     * The consumer group of the engine that dead-lettered it: a dead-letter topic shared by two archives of one topic
     * holds letters of the same source records from each, and an audit counts only its own archive's (counting the
     * other's hid a record missing from the files).
     */
    public static final String SOURCE_GROUP = "sluice.source.group";
    /** How many attempts were made (decimal text). */
    public static final String ATTEMPTS = "sluice.attempts";

    private DeadLetterHeaders() {
    }
}
