package io.sluice.cli.produce;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.core.ErrorWords;
import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.ImportPosition;
import io.sluice.producer.input.Input;
import io.sluice.producer.input.InputReading;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code sluice produce}: reads the inputs on a thread of its own and hands each line to the {@link Delivery};
 * on the first SIGINT/SIGTERM it stops reading, lets the delivery finish within the drain timeout and reports; a
 * second signal stops at once. The summary ends every run, and the exit status says whether every record read was
 * acknowledged.
 *
 * <p>Reading runs on its own thread so that a signal is heard while it waits on standard input; the delivery's calls
 * are serialized on {@link #lock}, and once the command's thread has closed it no record is sent any more. A delivery
 * call can block: a producer that lost the brokers forgets the topic (it goes back to its bootstrap servers) and its
 * {@code send} waits up to {@code max.block.ms} (60 s) for it. The command's thread waits for the lock only until the
 * drain's deadline; past it, it reports and closes the delivery, which ends the blocked call.
 *
 * <p>Threading: {@link #run} on the command's thread; the signal handlers only set the stop time (or halt).
 */
final class ProduceRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.produce");

    private final InputReading reading;
    private final Delivery delivery;
    private final DeliveryTally tally;
    private final TopicRules rules;
    private final Duration drainTimeout;
    private final Console console;
    private final ProduceSummary summary;
    private final ReentrantLock lock = new ReentrantLock();
    /** Set under {@link #lock}, or without it once the drain's deadline passed: no delivery call starts after it. */
    private volatile boolean closed;
    private volatile long stopAt;
    private volatile boolean readToEnd;
    /** Why reading ended before the inputs did: an unreadable input, or an error of the JVM (out of memory...). */
    private volatile Throwable readFailure;
    /** Files that grew after their end was reached: what they gained was not read. */
    private final List<String> grew = new CopyOnWriteArrayList<>();

    ProduceRun(InputReading reading, Delivery delivery, DeliveryTally tally, TopicRules rules, Duration drainTimeout,
            Console console, ProduceSummary summary) {
        this.reading = reading;
        this.delivery = delivery;
        this.tally = tally;
        this.rules = rules;
        this.drainTimeout = drainTimeout;
        this.console = console;
        this.summary = summary;
    }

    int run() throws InterruptedException {
        long start = System.nanoTime();
        ShutdownSignals signals = ShutdownSignals.install(this::requestStop, this::stopNow);
        Exception finishFailure = null;
        RuntimeException closeFailure = null;
        DeliverySnapshot last;
        try {
            Thread reader = new Thread(this::read, "sluice-produce-read");
            reader.setDaemon(true); // it may be blocked on standard input, which nothing can interrupt
            reader.start();
            while (reader.isAlive() && stopAt == 0) {
                reader.join(100);
            }
            if (stopAt != 0) {
                LOG.info("stopping (signal received): settling the records sent, for at most {}; a second Ctrl-C "
                        + "stops at once", Units.duration(drainTimeout));
            }
            boolean locked = lock.tryLock(Math.max(0, deadline() - System.nanoTime()), TimeUnit.NANOSECONDS);
            closed = true; // with the lock: after the send or commit under way; without it: none starts any more
            if (locked) {
                lock.unlock();
                try {
                    delivery.finish(this::deadline); // after a read failure too: what was sent is settled and reported
                } catch (RuntimeException e) {
                    finishFailure = e;
                }
            } else {
                LOG.warn("the drain timeout passed while a record was being handed to the producer (no broker "
                        + "answers?): reporting without waiting for it");
            }
            last = tally.snapshot();
        } finally {
            try {
                delivery.close();
            } catch (RuntimeException e) {
                closeFailure = e; // the journal could not be written: said after the summary, which must still come
            } finally {
                signals.close();
            }
        }
        boolean signalled = stopAt != 0;
        Throwable failure = readFailure != null ? readFailure : finishFailure;
        if (failure == null && !readToEnd && !signalled) {
            // never expected: every way out of reading sets one of the three; a run that read part of its input must
            // not end as if it had read it all
            failure = new IllegalStateException("reading ended before the end of the input, for no known reason");
        }
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        String text = summary.text(last, elapsed, readToEnd, signalled, failure, delivery.resumeNote(),
                delivery.noAnswerWhy());
        for (String file : grew) {
            text += System.lineSeparator() + "  " + file;
        }
        console.say(closeFailure == null ? text : text + System.lineSeparator() + "  "
                + ErrorWords.withoutClassNames(String.valueOf(closeFailure.getMessage())));
        if (last.failed() > 0 || last.pending() > 0) {
            return ExitStatus.SOME_RECORDS_FAILED;
        }
        if (failure != null || closeFailure != null || !grew.isEmpty()) {
            return ExitStatus.FAILURE;
        }
        // a signal that stopped the reading leaves input unsent: `sluice produce f && mv f done/` must not move it
        return readToEnd ? ExitStatus.OK : signals.status();
    }

    private void read() {
        try {
            ImportPosition from = delivery.start();
            delivery.unsentChange().ifPresent(grew::add);
            readToEnd = reading.run(from, new Guarded(), () -> stopAt != 0);
        } catch (Closed e) {
            // the command's thread closed the delivery: a stop was asked for
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable e) { // an Error too (a line that fills the heap...) must end the run as a failure
            readFailure = e;
        }
    }

    private long deadline() {
        long at = stopAt;
        return at == 0 ? Long.MAX_VALUE : at + drainTimeout.toNanos();
    }

    private void requestStop() {
        if (stopAt == 0) {
            stopAt = System.nanoTime();
        }
    }

    /** The second signal: say what a stop now leaves unsettled, then halt. */
    private void stopNow() {
        DeliverySnapshot now = tally.snapshot();
        console.clearStatus();
        console.say(String.format(java.util.Locale.ROOT, "second signal: stopping at once. %,d records read, %,d "
                + "acknowledged, %,d failed, %,d without an answer yet. %s", now.sent(), now.acknowledged(),
                now.failed(), now.pending(), delivery.uncommittedFate()));
        Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
    }

    /** Thrown into the reading thread when the delivery was closed under it. */
    private static final class Closed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Closed() {
            super(null, null, false, false);
        }
    }

    /** The delivery's calls, one at a time and none after {@link #closed}; records checked against the topic's rules. */
    private final class Guarded implements InputReading.Handler {

        @Override
        public void inputStarted(int index, Input input) throws IOException {
            lock.lock();
            try {
                ensureOpen();
                delivery.inputStarted(index, input);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void record(InputRecord record) {
            lock.lock();
            try {
                ensureOpen();
                Optional<BadInputException> refusal = rules.refusal(record);
                if (refusal.isPresent()) {
                    delivery.badLine(record.origin(), refusal.get());
                } else {
                    delivery.record(record);
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void badLine(Origin origin, BadInputException problem) {
            lock.lock();
            try {
                ensureOpen();
                delivery.badLine(origin, problem);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void inputEnded(int index) {
            lock.lock();
            try {
                ensureOpen();
                delivery.inputEnded(index);
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void inputGrew(int index, Input input, long taken, long now) {
            // not "tail -n +1 -F": that sends again every line this run sent (a review)
            grew.add(String.format(java.util.Locale.ROOT, "%s grew while it was read: %,d bytes when its end was "
                    + "reached, %,d now; what it gained was not sent. To send only that: tail -c +%d %s | sluice "
                    + "produce ... (a file still being written is best piped in as it grows)", input.name(), taken,
                    now, taken + 1, input.name()));
        }

        private void ensureOpen() {
            if (closed) {
                throw new Closed();
            }
        }
    }
}
