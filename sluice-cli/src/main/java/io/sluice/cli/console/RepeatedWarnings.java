package io.sluice.cli.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import org.slf4j.Marker;
import org.slf4j.MarkerFactory;

/**
 * Keeps the libraries' repeated warnings off the console: a Kafka client whose broker is down warns on every retry (140
 * lines in 30 s for one archive, measured) and says nothing new after the first. The first warning of each kind shows;
 * the same kind again within {@link #WINDOW} is counted, not shown; the next one after that shows, after a line saying
 * how many were not. A kind is a logger and its message with its counts and ids taken out ({@link #NUMBERS}): Kafka's
 * clients format their messages before logging them (a correlation id, a node in the text), so the pattern a logger
 * was given is not to be had. Errors all show but one (a rebalance listener's failure, which the engine reports in
 * words), and so do Sluice's own lines: it says what it means once. Installed unless {@code --verbose}. What is held
 * back when the command ends is counted in one line ({@link #heldBack}), so that no warning goes unmentioned.
 *
 * <p>Threading: any thread that logs; each kind's count is updated under that kind's lock.
 */
final class RepeatedWarnings extends TurboFilter {

    static final Duration WINDOW = Duration.ofMinutes(1);
    private static final int MAX_KINDS = 1_000;
    /**
     * A number standing alone (a count, a correlation id, an offset after {@code @}, a node), not one that is part of
     * a name: a topic-partition ({@code orders-3}), an address ({@code /10.0.0.7:9092}), a client's name
     * ({@code adminclient-1}) stay, so warnings about different partitions or brokers are different kinds.
     */
    private static final Pattern NUMBERS = Pattern.compile("(?<![A-Za-z0-9_]-)(?<![A-Za-z0-9_.:/])[0-9]+");
    /**
     * The Kafka consumer's error when a rebalance listener throws ({@code ConsumerRebalanceListenerInvoker}): the
     * engine's listener throws only to stop the engine, whose stop line says why, so the client's line (a class name
     * and a stack trace) says nothing to a person. Shown with {@code --verbose}.
     */
    private static final String LISTENER_FAILED = "User provided listener ";
    /**
     * A topic-partition in a producer's retry warning ({@code on partition orders-3 due to ...}): the producer's I/O
     * thread warns once for each partition of a broker that moved or stopped, so a target outage opened with 35 such
     * lines on a mirror of 36 partitions (a new user's run); for it, they are one kind. Other loggers keep partitions
     * apart (an offset out of range names the partition that lost records).
     */
    private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9._-]+-[0-9]+(?![0-9])");
    private static final String PRODUCER_IO = "org.apache.kafka.clients.producer.internals.Sender";
    /**
     * The client a Kafka client's line names first ({@code [Producer clientId=sluice-mirror.m-3, transactionalId=...]
     * }): a mirror writes through a producer for each partition, so a target outage said "Connection to node 2 could
     * not be established" once for each (31 lines in 20 s without {@code --verbose}, a new user's run). The words
     * after it say what happened; which client saw it too is for {@code --verbose}.
     */
    private static final Pattern CLIENT = Pattern.compile("^\\[[^\\]]*clientId=[^\\]]*\\] ");
    /** Marks the line that counts what was not shown: it is never held back itself. */
    private static final Marker COUNT = MarkerFactory.getMarker("SLUICE_REPEATS");

    private final ConcurrentMap<String, Kind> kinds = new ConcurrentHashMap<>();
    /** Warnings held back of kinds forgotten since (past {@link #MAX_KINDS}), by the source that logged them. */
    private final ConcurrentMap<String, LongAdder> forgotten = new ConcurrentHashMap<>();
    private final LongSupplier clock;
    private final long window;

    RepeatedWarnings() {
        this(System::nanoTime, WINDOW);
    }

    RepeatedWarnings(LongSupplier clock, Duration window) {
        this.clock = clock;
        this.window = window.toNanos();
    }

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
            Throwable t) {
        // contains, not startsWith: the consumer's LogContext puts "[Consumer clientId=..., groupId=...] " before it
        if (format != null && level == Level.ERROR && format.contains(LISTENER_FAILED)) {
            return FilterReply.DENY; // the engine's listener threw: the engine says why itself, in words
        }
        // level checks (isDebugEnabled) come here too, without a format: those are not lines; errors always show
        if (format == null || level != Level.WARN || marker == COUNT || ownLogger(logger.getName())) {
            return FilterReply.NEUTRAL;
        }
        // a logger set above WARN drops the line after this filter: counting it as shown, then its repeats as held
        // back, made the last line count warnings of which none ever showed
        if (!level.isGreaterOrEqual(logger.getEffectiveLevel())) {
            return FilterReply.NEUTRAL;
        }
        if (kinds.size() >= MAX_KINDS) {
            forget(); // messages that vary in words, not numbers: forget rather than grow
        }
        String words = CLIENT.matcher(format).replaceFirst("");
        String shape = logger.getName().equals(PRODUCER_IO) ? PARTITION.matcher(words).replaceAll("#") : words;
        Kind kind = kinds.computeIfAbsent(logger.getName() + ' ' + level + ' ' + NUMBERS.matcher(shape).replaceAll("#"),
                k -> new Kind(logger.getName()));
        long hidden;
        long since;
        synchronized (kind) {
            long now = clock.getAsLong();
            if (kind.shownAt != Long.MIN_VALUE && now - kind.shownAt < window) {
                kind.hidden++;
                return FilterReply.DENY;
            }
            since = now - kind.shownAt;
            kind.shownAt = now;
            hidden = kind.hidden;
            kind.hidden = 0;
        }
        if (hidden > 0) {
            logger.log(COUNT, Logger.class.getName(), Level.toLocationAwareLoggerInteger(level),
                    "the next warning came {} more {} in the {} since it last showed, not shown (--verbose shows each)",
                    new Object[] {hidden, hidden == 1 ? "time" : "times", Units.duration(Duration.ofNanos(since))},
                    null);
        }
        return FilterReply.NEUTRAL;
    }

    /**
     * The warnings held back and not yet counted in a line, by the source that logged them ({@link LogSource}:
     * {@code kafka}, {@code s3}); counted once: a second call returns only what was held back since.
     */
    Map<String, Long> heldBack() {
        Map<String, Long> held = new TreeMap<>();
        forgotten.forEach((source, count) -> held.merge(source, count.sumThenReset(), Long::sum));
        for (Kind kind : kinds.values()) {
            synchronized (kind) {
                held.merge(LogSource.of(kind.logger), kind.hidden, Long::sum);
                kind.hidden = 0;
            }
        }
        held.values().removeIf(count -> count == 0);
        return held;
    }

    private void forget() {
        for (Kind kind : kinds.values()) {
            synchronized (kind) {
                forgotten.computeIfAbsent(LogSource.of(kind.logger), k -> new LongAdder()).add(kind.hidden);
                kind.hidden = 0;
            }
        }
        kinds.clear();
    }

    private static boolean ownLogger(String name) {
        return name.startsWith("io.sluice") || name.startsWith("sluice");
    }

    /** One kind of warning: when it last showed, and how many of it were not shown since. */
    private static final class Kind {
        final String logger;
        long shownAt = Long.MIN_VALUE;
        long hidden;

        Kind(String logger) {
            this.logger = logger;
        }
    }
}
