package io.sluice.producer;

/**
 * A record the broker did not take.
 *
 * @param origin where the record came from, in the caller's words (e.g. {@code events.jsonl:42})
 * @param error  why: the producer's exception
 */
public record DeliveryFailure(String origin, Exception error) {

    /** The error's class and message, e.g. {@code TimeoutException: Topic t not present in metadata after 1000 ms.} */
    public String reason() {
        return error.getClass().getSimpleName() + ": " + error.getMessage();
    }

    @Override
    public String toString() {
        return origin + ": " + reason();
    }
}
