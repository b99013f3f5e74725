package io.sluice.producer.input;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Reads inputs one after another, from a position (the start, or where an exactly-once import's last commit ended),
 * and hands every line to a {@link Handler}: as a record, or as a bad line with what was wrong. Checks before each line
 * whether to stop, and paces lines to a rate.
 *
 * <p>Threading: {@link #run} on one thread, which calls the handler.
 */
public final class InputReading {

    /** What becomes of the lines. */
    public interface Handler {
        /** Reading of input {@code index} begins (at its start, or at the resume position). */
        void inputStarted(int index, Input input) throws IOException;

        void record(InputRecord record);

        /** A line its format refused; it counts as failed, never as skipped in silence. */
        void badLine(Origin origin, BadInputException problem);

        /** Input {@code index} was read to its end. */
        void inputEnded(int index);

        /**
         * File input {@code index} held {@code taken} bytes when its end was reached and {@code now} bytes after: it
         * grew, and what it gained was not read.
         */
        default void inputGrew(int index, Input input, long taken, long now) {
        }
    }

    private final List<Input> inputs;
    private final RecordParser parser;
    private final RatePacer pacer;

    public InputReading(List<Input> inputs, RecordParser parser, RatePacer pacer) {
        this.inputs = List.copyOf(inputs);
        this.parser = parser;
        this.pacer = pacer;
    }

    /**
     * Reads from {@code from} to the end of the last input, or until {@code stop} says so.
     *
     * @return true when every input was read to its end
     * @throws IOException when an input cannot be opened or read (the message names it)
     */
    public boolean run(ImportPosition from, Handler handler, BooleanSupplier stop)
            throws IOException, InterruptedException {
        for (int i = from.file(); i < inputs.size(); i++) {
            Input input = inputs.get(i);
            handler.inputStarted(i, input);
            boolean resume = i == from.file() && from.offset() > 0;
            LineReader reader;
            AtomicLong taken = new AtomicLong();
            try {
                reader = resume ? LineReader.resumeAt(input.open(taken), input.name(), from.offset(), from.line())
                        : LineReader.of(input.open(taken), input.name());
            } catch (IOException e) {
                throw new IOException("cannot read " + input.name() + ": " + words(e), e);
            }
            try (reader) {
                for (InputLine line = reader.next(); line != null; line = reader.next()) {
                    pacer.acquire();
                    if (stop.getAsBoolean()) {
                        return false;
                    }
                    handle(line, handler);
                }
            } catch (IOException e) {
                // where: a truncated .gz said only "Unexpected end of ZLIB input stream" (a new user's run)
                throw new IOException("cannot read " + input.name() + " at line " + reader.nextLineNumber() + ": "
                        + words(e), e);
            }
            handler.inputEnded(i);
            if (!input.isStdin()) {
                // a file still being written reads to its end of the moment: the run then ended "read to the end",
                // exit 0, with the lines written after unsent, and `sluice produce f && mv f done/` moved them (a review)
                long now = sizeOf(input);
                if (now > taken.get()) {
                    handler.inputGrew(i, input, taken.get(), now);
                }
            }
        }
        return true;
    }

    private static long sizeOf(Input input) {
        try {
            return Files.size(input.path());
        } catch (IOException e) {
            return -1; // moved or removed since: nothing to compare, and nothing more to read from it either
        }
    }

    /**
     * A read error in words: a compressed input that ends early is said to be cut short, one with other data after
     * its end to hold it, and a file the system refuses why (their messages are only the path).
     */
    public static String words(IOException e) {
        String message = String.valueOf(e.getMessage());
        if (e instanceof NoSuchFileException) {
            return "no such file (was it moved or removed after the command started?)";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        if (message.contains("Garbage after a valid .gz stream")) {
            return "data that is not gzip follows the end of the gzip data (something was appended to the file, or "
                    + "it is damaged)";
        }
        if (e instanceof java.io.EOFException || message.contains("Unexpected end of ZLIB input stream")
                || message.contains("end of stream") || message.contains("Truncated")) {
            return "the compressed data ends early: the file was cut short, or is still being written"
                    + (e.getMessage() == null ? "" : " (" + message + ")");
        }
        return message;
    }

    private void handle(InputLine line, Handler handler) {
        if (line.isTooLong()) {
            handler.badLine(line.origin(), new BadInputException("the line is longer than "
                    + (LineReader.MAX_LINE >> 20) + " MiB, more than any record a broker takes, and was not read into "
                    + "memory: is the input cut into lines (not one JSON array on a line, not line ends other than "
                    + "\\n)?"));
            return;
        }
        InputRecord record;
        try {
            record = parser.parse(line);
        } catch (BadInputException e) {
            handler.badLine(line.origin(), e);
            return;
        }
        handler.record(record);
    }
}
