package io.sluice.cli.produce;

import io.sluice.cli.ExitStatus;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.DeliveryTally;
import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.Input;
import io.sluice.producer.input.InputReading;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import java.io.IOException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code sluice produce}: reads the inputs on a thread of its own and hands each line to the {@link Delivery};
 * on the first SIGINT/SIGTERM it stops reading, lets the delivery finish within the drain timeout and reports; a
 * second signal stops at once. The summary ends every run, and the exit status says whether every record read was
 * acknowledged.
 *
 * <p>Reading runs on its own thread so that a signal is heard while it waits on standard input; the delivery's calls
 * are serialized on {@link #lock}, and once the command's thread has closed it no record is sent any more.
 *
 * <p>Threading: {@link #run} on the command's thread; the signal handlers only set the stop time (or halt).
 */
final class ProduceRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.produce");

    private final InputReading reading;
    private final Delivery delivery;
    private final DeliveryTally tally;
    private final int partitions;
    private final Duration drainTimeout;
    private final Console console;
    private final ProduceSummary summary;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}: no delivery call after it is set. */
    private boolean closed;
    private volatile long stopAt;
    private volatile boolean readToEnd;
    private volatile Exception readFailure;

    ProduceRun(InputReading reading, Delivery delivery, DeliveryTally tally, int partitions, Duration drainTimeout,
            Console console, ProduceSummary summary) {
        this.reading = reading;
        this.delivery = delivery;
        this.tally = tally;
        this.partitions = partitions;
        this.drainTimeout = drainTimeout;
        this.console = console;
        this.summary = summary;
    }

    int run() throws InterruptedException {
        long start = System.nanoTime();
        ShutdownSignals signals = ShutdownSignals.install(this::requestStop, this::stopNow);
        Exception finishFailure = null;
        DeliverySnapshot last;
        try {
            Thread reader = new Thread(this::read, "sluice-produce-read");
            reader.setDaemon(true); // it may be blocked on standard input, which nothing can interrupt
            reader.start();
            while (reader.isAlive() && stopAt == 0) {
                reader.join(100);
            }
            synchronized (lock) {
                closed = true; // waits out the send or commit under way
            }
            if (stopAt != 0) {
                LOG.info("stopping (signal received): settling the records sent, for at most {}; a second Ctrl-C "
                        + "stops at once", Units.duration(drainTimeout));
            }
            try {
                delivery.finish(this::deadline); // after a read failure too: what was sent is settled and reported
            } catch (RuntimeException e) {
                finishFailure = e;
            }
            last = tally.snapshot();
        } finally {
            try {
                delivery.close();
            } finally {
                signals.close();
            }
        }
        Exception failure = readFailure != null ? readFailure : finishFailure;
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        console.say(summary.text(last, elapsed, readToEnd, stopAt != 0, failure, delivery.resumeNote()));
        if (last.failed() > 0 || last.pending() > 0) {
            return ExitStatus.SOME_RECORDS_FAILED;
        }
        return failure != null ? ExitStatus.FAILURE : ExitStatus.OK;
    }

    private void read() {
        try {
            readToEnd = reading.run(delivery.start(), new Guarded(), () -> stopAt != 0);
        } catch (Closed e) {
            // the command's thread closed the delivery: a stop was asked for
        } catch (IOException | RuntimeException e) {
            readFailure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

    /** The delivery's calls, one at a time and none after {@link #closed}; partitions checked against the topic. */
    private final class Guarded implements InputReading.Handler {

        @Override
        public void inputStarted(int index, Input input) throws IOException {
            synchronized (lock) {
                ensureOpen();
                delivery.inputStarted(index, input);
            }
        }

        @Override
        public void record(InputRecord record) {
            synchronized (lock) {
                ensureOpen();
                Integer p = record.partition();
                if (p != null && p >= partitions) {
                    delivery.badLine(record.origin(), new BadInputException("field \"partition\": the topic has "
                            + partitions + " partition(s), 0 to " + (partitions - 1) + ", not " + p));
                } else {
                    delivery.record(record);
                }
            }
        }

        @Override
        public void badLine(Origin origin, BadInputException problem) {
            synchronized (lock) {
                ensureOpen();
                delivery.badLine(origin, problem);
            }
        }

        @Override
        public void inputEnded(int index) {
            synchronized (lock) {
                ensureOpen();
                delivery.inputEnded(index);
            }
        }

        private void ensureOpen() {
            if (closed) {
                throw new Closed();
            }
        }
    }
}
