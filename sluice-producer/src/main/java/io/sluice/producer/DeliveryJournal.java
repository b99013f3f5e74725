package io.sluice.producer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.kafka.clients.producer.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where each record went, one line per record, in the order outcomes arrive (per partition, the order of the input):
 * {@code <origin>\t<byte offset>\tok\t<partition>@<offset>}, {@code <origin>\t<byte offset>\tfailed\t<reason>}, or,
 * for a record still without an answer when the producer was given up on ({@link #giveUp}),
 * {@code <origin>\t<byte offset>\tunknown\t<why>}.
 * Lines are handed to the file whole, in batches of {@value #BATCH_BYTES} bytes or {@value #FLUSH_MILLIS} ms (checked
 * as outcomes arrive, and on {@link #flush}): a crash loses at most the last batch, leaves every line before it
 * readable, and at most the last line cut short (a line without its newline is not one).
 *
 * <p>Threading: {@link #outcome} on the producer's I/O thread (or the sending thread, for records that failed before
 * sending); {@link #close} on the thread that ran the import. Writes are serialized on this object.
 */
public final class DeliveryJournal implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.produce");
    private static final int BATCH_BYTES = 64 * 1024;
    private static final long FLUSH_MILLIS = 200;
    private static final String NO_ANSWER = "no answer before the producer was closed: it may or may not be in the "
            + "topic";

    private final OutputStream out;
    private final StringBuilder batch = new StringBuilder();
    private long lastFlush = System.currentTimeMillis();
    private IOException failure;
    /** Set by {@link #giveUp}: the errors after it are the producer's forced close, not the brokers' answers. */
    private volatile boolean givenUp;

    private DeliveryJournal(OutputStream out) {
        this.out = out;
    }

    /** Appends to {@code file} (created when missing): a resumed pipe's journal goes on where the last one ended. */
    public static DeliveryJournal appendingTo(Path file) throws IOException {
        return new DeliveryJournal(Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
    }

    /** The callback that journals one record's outcome, for {@link DeliveryTally#sent(Object, long, Callback)}. */
    public Callback outcome(String origin, long byteOffset) {
        return (metadata, error) -> {
            String line;
            if (error == null) {
                line = origin + "\t" + byteOffset + "\tok\t" + metadata.partition() + "@" + metadata.offset();
            } else if (givenUp) {
                line = origin + "\t" + byteOffset + "\tunknown\t" + NO_ANSWER;
            } else {
                line = origin + "\t" + byteOffset + "\tfailed\t" + oneLine(new DeliveryFailure(origin, error).reason());
            }
            append(line);
        };
    }

    /**
     * The records without an answer yet will not get one from the brokers: the producer is about to be closed at once
     * (a drain's deadline passed). Closing fails them with "Producer is closed forcefully", but a record sent may be
     * in the topic all the same (the broker wrote it and only the answer is missing), so the journal calls them
     * unknown, as the summary counts them, not failed (an audit of the journal against the topic would otherwise
     * find "failed" records in it, and the journal's counts would not be the summary's).
     */
    public void giveUp() {
        givenUp = true;
    }

    private synchronized void append(String line) {
        batch.append(line).append('\n');
        long now = System.currentTimeMillis();
        if (batch.length() >= BATCH_BYTES || now - lastFlush >= FLUSH_MILLIS) {
            flush();
            lastFlush = now;
        }
    }

    /** Hands what is batched to the file. */
    public synchronized void flush() {
        if (batch.isEmpty() || failure != null) {
            return;
        }
        try {
            out.write(batch.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            failure = e; // reported by close(): an outcome callback has nobody to throw to
            // said now too: a disk that fills in the first minute of a run of hours should not wait for its end
            LOG.warn("cannot write the journal ({}): the run goes on, but the journal lacks every outcome from "
                    + "here on, and the run will end with exit status 1", e.getMessage());
        }
        batch.setLength(0);
    }

    /** @throws UncheckedIOException when a write failed: the journal is incomplete */
    @Override
    public synchronized void close() {
        flush();
        try {
            out.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        if (failure != null) {
            throw new UncheckedIOException("the journal is incomplete: " + failure.getMessage(), failure);
        }
    }

    private static String oneLine(String text) {
        return text.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    }
}
