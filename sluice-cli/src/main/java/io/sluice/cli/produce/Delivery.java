package io.sluice.cli.produce;

import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.InputReading;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * How the records read reach the topic, and what counts as done: acknowledged by the brokers
 * ({@link AtLeastOnceDelivery}), or committed in a transaction with the input position ({@link TransactionalDelivery}).
 * Every record's outcome goes to the run's {@link io.sluice.producer.DeliveryTally}.
 *
 * <p>Threading: the handler calls come from the reading thread, then {@link #finish} and {@link #close} from the
 * command's thread, never at the same time ({@link ProduceRun} serializes them).
 */
interface Delivery extends InputReading.Handler, AutoCloseable {

    /** Where reading starts: the first line, or where the last committed transaction ended. */
    ImportPosition start();

    /**
     * After the last record: settles what was sent (waits for acknowledgements, or commits), at most until
     * {@code deadline} (a {@link System#nanoTime} value that changes to a finite one when a signal asks for a stop).
     */
    void finish(LongSupplier deadline);

    /**
     * A change to an input that this run will not send, found by {@link #start}: said in the summary, and the run ends
     * with exit status 1, so that {@code sluice produce f && mv f done/} does not move what was not sent.
     */
    default Optional<String> unsentChange() {
        return Optional.empty();
    }

    /** Where a rerun would go on, when that is known. */
    Optional<String> resumeNote();

    /** What stopping now, without finishing, means for the records sent. */
    String uncommittedFate();

    /** Why records were left without an answer, as the summary says it after "had no answer". */
    default String noAnswerWhy() {
        return "when the drain timeout passed";
    }

    @Override
    void close();
}
