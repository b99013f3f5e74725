package io.sluice.cli.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.PatternLayout;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * Sets up the command's logging once its options are known: to the console's log stream (standard error, around the
 * status line), as text or JSON. Sluice logs at INFO; the Kafka, AWS, Hadoop, Parquet and Avro libraries only at WARN (their INFO
 * output is configuration dumps and connection chatter), and each of their warnings once a minute
 * ({@link RepeatedWarnings}), unless {@code --verbose}.
 *
 * <p>Threading: call from the main thread before the command starts its work.
 */
public final class Logging {

    private static final List<String> CHATTY = List.of("org.apache.kafka", "software.amazon", "org.apache.hadoop",
            "org.apache.parquet", "org.apache.avro", "io.micrometer");

    private static final String UNASSIGNED_LSO_WARNINGS =
            "org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils";
    /**
     * "Unable to load native-hadoop library for your platform... using builtin-java classes where applicable": at every
     * command that touches HDFS, where the builtin classes are what Sluice means to use (a new user's run asked).
     */
    private static final String HADOOP_NATIVE_WARNING = "org.apache.hadoop.util.NativeCodeLoader";

    private static volatile boolean verbose;
    /** The filter of the last {@link #configure}, or null with {@code --verbose}. */
    private static volatile RepeatedWarnings repeats;

    private Logging() {
    }

    public static void configure(OutputStream stream, LogFormat format, boolean verbose) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        context.reset();
        Encoder<ILoggingEvent> encoder = format == LogFormat.JSON ? json(context) : text(context, verbose);
        OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setName("console");
        appender.setEncoder(encoder);
        appender.setOutputStream(stream);
        appender.setImmediateFlush(true);
        appender.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(appender);
        root.setLevel(Level.INFO);
        RepeatedWarnings filter = verbose ? null : new RepeatedWarnings();
        if (filter != null) {
            filter.setContext(context);
            filter.start();
            context.addTurboFilter(filter);
        }
        Logging.repeats = filter;
        Logging.verbose = verbose;
        // Sluice's own loggers: io.sluice.* (engine, storage) and sluice.* (the command's messages)
        context.getLogger("io.sluice").setLevel(verbose ? Level.DEBUG : Level.INFO);
        context.getLogger("sluice").setLevel(verbose ? Level.DEBUG : Level.INFO);
        for (String chatty : CHATTY) {
            context.getLogger(chatty).setLevel(verbose ? Level.INFO : Level.WARN);
        }
        if (!verbose) {
            // a read_committed endOffsets for partitions not assigned yet (how a bounded run takes its ends) warns
            // once for each that their last stable offset is not kept: nothing is wrong
            context.getLogger(UNASSIGNED_LSO_WARNINGS).setLevel(Level.ERROR);
            context.getLogger(HADOOP_NATIVE_WARNING).setLevel(Level.ERROR);
        }
    }

    /**
     * The command ends: one line counts the libraries' warnings held back since each last showed, if any, so that a
     * run that ends does not leave some of them unmentioned.
     */
    public static void finish() {
        RepeatedWarnings filter = repeats;
        Map<String, Long> held = filter == null ? Map.of() : filter.heldBack();
        if (!held.isEmpty()) {
            String counts = held.entrySet().stream()
                    .map(e -> e.getValue() + " " + e.getKey() + (e.getValue() == 1 ? " warning" : " warnings"))
                    .collect(Collectors.joining(", "));
            LoggerFactory.getLogger("sluice.warnings").info("{} that repeated one shown earlier {} not shown "
                    + "(--verbose shows each)", counts, held.values().stream().mapToLong(Long::longValue).sum() == 1
                    ? "was" : "were");
        }
    }

    /**
     * Only warnings and errors from {@code logger} from now on, unless {@code --verbose}: for a command that says the
     * same in its own words.
     */
    public static void quiet(String logger) {
        if (!verbose) {
            ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(logger).setLevel(Level.WARN);
        }
    }

    /**
     * Lines in words, each from a {@link LogSource} word; the class that logged it and the stack of a logged exception
     * only with {@code --verbose} (the exception's message is in the line).
     */
    private static Encoder<ILoggingEvent> text(LoggerContext context, boolean verbose) {
        PatternLayout layout = new PatternLayout();
        layout.setContext(context);
        layout.getInstanceConverterMap().put("source", LogSource::new);
        layout.getInstanceConverterMap().put("words", LogWords::new);
        layout.setPattern("%d{HH:mm:ss.SSS} %-5level " + (verbose ? "%logger{0}: %msg%n" : "%source: %words%n")
                + (verbose ? "%ex{8}" : "%nopex"));
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        return encoder;
    }

    private static Encoder<ILoggingEvent> json(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithContext(false);
        encoder.setWithArguments(false);
        encoder.setWithMessage(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }
}
