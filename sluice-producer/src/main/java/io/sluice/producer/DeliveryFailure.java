package io.sluice.producer;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * A record the broker did not take.
 *
 * @param origin where the record came from, in the caller's words (e.g. {@code events.jsonl:42})
 * @param error  why: the producer's exception
 */
public record DeliveryFailure(String origin, Exception error) {

    /** Exceptions whose name says nothing the message does not: their message alone. */
    private static final Set<String> GENERIC = Set.of("KafkaException", "ApiException", "RuntimeException", "Exception",
            "IllegalStateException", "IllegalArgumentException");
    private static final Pattern WORD_START = Pattern.compile("(?<=[a-z0-9])(?=[A-Z])");
    /** How Kafka's producer fails a record refused only because its batch held one the broker refused (KIP-467). */
    private static final String BATCH_MATE = "Failed to append record because it was part of a batch";

    /**
     * Whether the record failed only because another record of its batch was refused: nothing is wrong with it, and
     * the record that is wrong has a failure of its own, with the broker's reason.
     */
    public boolean batchMate() {
        return error.getClass() == org.apache.kafka.common.KafkaException.class && error.getMessage() != null
                && error.getMessage().startsWith(BATCH_MATE);
    }

    /**
     * The kind of error in words (its class's name, spelt out) and its message, e.g. {@code record too large: The
     * message is 1048664 bytes ...} or {@code timeout: Topic t not present in metadata after 1000 ms.}; a person reads
     * this, not a class name.
     */
    public String reason() {
        if (batchMate()) {
            return "refused with its batch, in which the broker refused another record (listed with its own reason); "
                    + "this record was not at fault";
        }
        String message = error.getMessage() == null ? "no detail given" : error.getMessage();
        if (message.contains("the value of the max.request.size configuration")) {
            // a limit the user may never have set: sluice produce takes the topic's when that is lower
            message += " (sluice produce sets max.request.size to the topic's max.message.bytes when that is below "
                    + "1 MiB, unless -X max.request.size is given)";
        }
        if (error instanceof io.sluice.producer.input.BadInputException bad && !bad.malformed()) {
            return "not sent, the topic would refuse it: " + message;
        }
        String name = error.getClass().getSimpleName();
        if (GENERIC.contains(name) || !name.endsWith("Exception")) {
            return message;
        }
        return WORD_START.matcher(name.substring(0, name.length() - "Exception".length())).replaceAll(" ")
                .toLowerCase(java.util.Locale.ROOT) + ": " + message;
    }

    @Override
    public String toString() {
        return origin + ": " + reason();
    }
}
