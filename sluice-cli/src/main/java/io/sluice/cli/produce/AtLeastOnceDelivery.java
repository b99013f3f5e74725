package io.sluice.cli.produce;

import io.sluice.producer.DeliveryJournal;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.Input;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Records sent by an idempotent producer with acks=all ({@link io.sluice.producer.ProducerSettings}); a record is done
 * when the brokers acknowledge it. Each outcome goes to the tally and, when asked, to a journal line.
 *
 * <p>Threading: see {@link Delivery}; the outcome callbacks run on the producer's I/O thread.
 */
final class AtLeastOnceDelivery implements Delivery {

    private static final long POLL_NANOS = Duration.ofMillis(20).toNanos();
    /** Beyond the delivery timeout, before a missing outcome means the producer will never give one. */
    private static final Duration OUTCOME_GRACE = Duration.ofSeconds(10);

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final DeliveryTally tally;
    private final DeliveryJournal journal;
    /** How long after its send a record has an outcome at the latest, by the producer's own delivery timeout. */
    private final long outcomeDueNanos;
    private volatile long lastSend = System.nanoTime();

    /** @param journal where each outcome is written, or null */
    AtLeastOnceDelivery(Map<String, Object> producerProperties, String topic, DeliveryTally tally,
            DeliveryJournal journal) {
        this.producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
        Object timeout = producerProperties.get(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG);
        this.outcomeDueNanos = Duration.ofMillis(timeout == null ? 120_000 : Long.parseLong(timeout.toString()))
                .plus(OUTCOME_GRACE).toNanos();
        this.topic = topic;
        this.tally = tally;
        this.journal = journal;
    }

    @Override
    public ImportPosition start() {
        return ImportPosition.startOf(0, null);
    }

    @Override
    public void inputStarted(int index, Input input) {
        // nothing to remember: without transactions a rerun starts again from the first line
    }

    @Override
    public void record(InputRecord record) {
        Callback outcome = outcome(record.origin(), record.size());
        lastSend = System.nanoTime();
        try {
            producer.send(record.toProducerRecord(topic), outcome);
        } catch (RuntimeException e) {
            outcome.onCompletion(null, e); // refused before sending (a partition the topic lacks, a closed producer)
        }
    }

    @Override
    public void badLine(Origin origin, BadInputException problem) {
        outcome(origin, 0).onCompletion(null, problem);
    }

    @Override
    public void inputEnded(int index) {
        // nothing: outcomes arrive by record
    }

    private Callback outcome(Origin origin, long bytes) {
        return tally.sent(origin, bytes, journal == null ? null : journal.outcome(origin.toString(),
                origin.offset()));
    }

    /**
     * Waits until every record sent has an outcome; a signal's deadline cuts the wait short, and so does the delivery
     * timeout: a producer whose I/O thread died (Kafka 4.3's can, splitting a batch too large for the topic forever)
     * never answers, and its records are then reported as without an answer rather than waited for.
     */
    @Override
    public void finish(LongSupplier deadline) {
        while (tally.snapshot().pending() > 0) {
            long now = System.nanoTime();
            if (now >= deadline.getAsLong() || now - lastSend >= outcomeDueNanos) {
                return;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(POLL_NANOS);
        }
    }

    @Override
    public Optional<String> resumeNote() {
        return journal == null ? Optional.empty()
                : Optional.of("the journal says, per input line, where it went or why it failed");
    }

    @Override
    public String uncommittedFate() {
        return "Records sent without an answer yet may or may not be in the topic.";
    }

    /**
     * Closes the producer: at once when records are still without an outcome (the drain's deadline passed, so the
     * summary already counts them as unknown), else after a short wait for its last requests.
     */
    @Override
    public void close() {
        boolean unanswered = tally.snapshot().pending() > 0;
        if (unanswered && journal != null) {
            journal.giveUp(); // the forced close fails them, but their fate is unknown
        }
        try {
            producer.close(unanswered ? Duration.ZERO : Duration.ofSeconds(5));
        } finally {
            if (journal != null) {
                journal.close();
            }
        }
    }
}
