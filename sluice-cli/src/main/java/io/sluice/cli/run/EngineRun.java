package io.sluice.cli.run;

import io.sluice.core.Causes;
import io.sluice.core.ErrorWords;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.cli.progress.ProgressReporter;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.core.DrainAbandonedException;
import io.sluice.core.Engine;
import io.sluice.core.EngineStats;
import io.sluice.core.Health;
import io.sluice.core.PartitionStats;
import io.sluice.core.RecordsLostException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a started engine as a command shows it, for every command that runs one (an archive, a mirror): the
 * progress line until the engine ends or a stop is asked for, a drain on the first SIGINT/SIGTERM (the engine's close
 * commits what is done), and on a second signal an immediate halt that says which offsets were not committed. What the
 * words say about the sink comes from a {@link Story}.
 *
 * <p>Threading: {@link #run} on the calling thread; the signal handlers only set the stop request (or halt).
 */
public final class EngineRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");
    private static final Duration TICK = Duration.ofMillis(200);
    /** The stop reason of the first SIGINT/SIGTERM. */
    private static final String SIGNAL = "signal received";
    private static final Duration ASSIGNMENT_WARNING = Duration.ofSeconds(30);
    /**
     * A halt does not leave the group, and the coordinator waits for the member's session to time out before it gives
     * the partitions to anyone: a restart right away sits with none for that long, which looked like a hang.
     */
    public static final String LEFT_WITHOUT_LEAVING = "This instance did not leave its group: a restart (or another "
            + "instance) is given its partitions once its session has timed out (session.timeout.ms, 45 s by "
            + "default).";

    /**
     * How a run ended: the exit status, the last reading, and how long it ran; {@code startsAgain} when it failed in a
     * way its {@link Story} starts a new engine after ({@link Story#startsAgainAfter}).
     */
    public record Outcome(int exitStatus, ProgressSample last, Duration elapsed, boolean startsAgain) {
    }

    /** What the run's messages say about what this engine's sink does. */
    public interface Story {
        /** Why no partition may be assigned yet, as a question to the user (brokers, topics, other instances). */
        String noAssignmentHint();

        /** What a drain does, e.g. "finishing the records being written, then committing and publishing files". */
        String drainMessage();

        /** The totals of a finished run, e.g. "1,000 records done, 3 files published, in 2.0 s". */
        String totals(ProgressSample last, Duration elapsed);

        /** What an immediate stop means for the records read after the last commit. */
        String uncommittedFate();

        /**
         * How long until the records the sink holds (consumed, not yet committed) are expected to commit; empty when
         * unknown or when the sink holds none.
         */
        default Optional<Duration> untilCommit() {
            return Optional.empty();
        }

        /**
         * How long records have waited for the cluster or store the sink writes to with no answer from it (a mirror's
         * target, an archive's S3); empty while it answers. Asked at every tick of the progress line.
         */
        default Optional<Duration> targetUnreachable() {
            return Optional.empty();
        }

        /**
         * What the sink is busy with now that holds records back, in words ("rolling: sealing 312 files"); empty when
         * nothing. The line says it in place of "not catching up" while nothing completes.
         */
        default Optional<String> busy() {
            return Optional.empty();
        }

        /**
         * The brokers of the cluster the sink writes to that owe it an answer while the others answer, with how long
         * (as of the last {@link #targetUnreachable()} look); empty for a sink that writes to no cluster.
         */
        default Map<Integer, Duration> targetBrokersUnanswered() {
            return Map.of();
        }

        /**
         * How to go on when records the run was to process are gone ({@link RecordsLostException}), in the words of
         * this command's settings; the engine's own advice names its API's.
         */
        String lostRecordsAdvice(RecordsLostException lost);

        /**
         * Whether the command starts a new engine after this failure instead of exiting: a failure a restart cures,
         * such as a cluster that did not answer in time (a restart goes on from the committed offsets, as one by a
         * supervisor would). Never after a stop a signal asked for.
         */
        default boolean startsAgainAfter(Throwable failure) {
            return false;
        }
    }

    private final Engine engine;
    private final Console console;
    private final LongSupplier files;
    private final Story story;
    private final AtomicReference<String> stopReason = new AtomicReference<>();
    /** Whether a signal asked for the stop, at any time of the run: written by the signal's thread. */
    private volatile boolean signalled;

    /** @param files the files committed so far, or null for a sink without files */
    public EngineRun(Engine engine, Console console, LongSupplier files, Story story) {
        this.engine = engine;
        this.console = console;
        this.files = files;
        this.story = story;
    }

    /**
     * Shows progress until the engine ends by itself or a signal asks for a stop, drains, and reports.
     *
     * @param label    what the progress line says is going on, e.g. "archiving"
     * @param logEvery without a terminal, how often a progress line is logged
     */
    public Outcome run(String label, Duration logEvery) {
        long start = System.nanoTime();
        ShutdownSignals signals = ShutdownSignals.install(this::signalled, this::stopNow);
        ProgressReporter reporter = new ProgressReporter(console, label, logEvery);
        try {
            loop(reporter, start);
        } finally {
            requestStop("the run is ending"); // no-op when a stop was requested already
            try {
                drain(reporter);
            } finally {
                signals.close();
                reporter.finish();
            }
        }
        ProgressSample last = progress();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        int status = report(last, elapsed);
        return new Outcome(status, last, elapsed, status == ExitStatus.FAILURE && startsAgain());
    }

    private ProgressSample progress() {
        return ProgressSample.of(engine, files, story::untilCommit, story::targetUnreachable).withBusy(story.busy());
    }

    private void requestStop(String reason) {
        stopReason.compareAndSet(null, reason);
    }

    /**
     * The partitions stopped at a gap, those without a leader in the source cluster, and the source and target brokers
     * that stopped answering while the others answer, for the end of the line: the lag of those partitions stands
     * still.
     */
    private static String withoutLeader(Engine engine, Story story) {
        StringBuilder s = new StringBuilder();
        Set<TopicPartition> stopped = engine.partitionsStoppedAtGap().keySet();
        if (!stopped.isEmpty()) {
            s.append(stopped.stream().map(TopicPartition::toString).collect(Collectors.joining(", ")))
                    .append(" stopped: records lost (see the log)");
        }
        engine.partitionsWithoutLeader().forEach((tp, d) -> s.append(s.length() == 0 ? "" : " · ").append(tp)
                .append(" has no leader for ").append(Units.duration(d)));
        engine.sourceBrokersUnanswered().forEach((broker, d) -> s.append(s.length() == 0 ? "" : " · ")
                .append("no answer from source broker ").append(broker).append(" for ").append(Units.duration(d)));
        story.targetBrokersUnanswered().forEach((broker, d) -> s.append(s.length() == 0 ? "" : " · ")
                .append("no answer from target broker ").append(broker).append(" for ").append(Units.duration(d)));
        return s.toString();
    }

    private void loop(ProgressReporter reporter, long start) {
        boolean warned = false;
        while (true) {
            ProgressSample now = progress();
            if (engine.health() == Health.DRAINING) {
                reporter.stopping(now, story.drainMessage());
            } else {
                reporter.update(now, withoutLeader(engine, story));
            }
            if (!warned && engine.partitions().isEmpty() && now.nanos() - start > ASSIGNMENT_WARNING.toNanos()) {
                warned = true;
                LOG.warn("no partition assigned after {} s: {}", ASSIGNMENT_WARNING.toSeconds(),
                        story.noAssignmentHint());
            }
            if (stopReason.get() != null || engine.awaitTermination(TICK)) {
                return;
            }
        }
    }

    /**
     * Closes the engine on a thread of its own while this one keeps the progress line going: a drain can take as long
     * as the drain timeout and a commit to a slow or absent cluster, and a line that stopped moving read as a hang.
     */
    private void drain(ProgressReporter reporter) {
        if (engine.health() == Health.STOPPED || engine.health() == Health.FAILED) {
            return;
        }
        LOG.info("stopping ({}): {}; a second Ctrl-C stops at once", stopReason.get(), story.drainMessage());
        AtomicReference<RuntimeException> failed = new AtomicReference<>();
        Thread closing = new Thread(() -> {
            try {
                engine.close();
            } catch (RuntimeException e) {
                failed.set(e); // the command's own failure handler says it, not this thread's uncaught handler
            }
        }, "sluice-drain");
        closing.start();
        try {
            while (!join(closing, TICK)) {
                reporter.stopping(progress(), story.drainMessage());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the second signal halts the JVM; nothing else interrupts this thread
        }
        if (failed.get() != null) {
            throw failed.get();
        }
    }

    /** @return whether {@code thread} ended within {@code timeout} */
    private static boolean join(Thread thread, Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        return !thread.isAlive();
    }

    private int report(ProgressSample last, Duration elapsed) {
        Health health = engine.health();
        String totals = story.totals(last, elapsed) + givenUp(engine.stats()) + lagLeft(last);
        if (health == Health.STOPPED) {
            LOG.info("stopped cleanly: {}", totals);
            return ExitStatus.OK;
        }
        if (signalled && engine.failure().orElse(null) instanceof DrainAbandonedException left) {
            // the stop asked for, and nothing lost: what was not committed is processed again at the next start
            LOG.warn("stopped without the last commit ({}): {}. What was read since the last commit was let go of. "
                    + "{}", left.why(), totals, story.uncommittedFate());
            return ExitStatus.OK;
        }
        String why = engine.failure().map(this::describeFailure).orElse("the engine did not stop within the drain "
                + "timeout");
        if (startsAgain()) {
            LOG.warn("stopped with an error: {}{} {}; starting again from the committed offsets.", why,
                    why.endsWith(".") ? "" : ".", totals);
        } else {
            LOG.error("stopped with an error: {}{} {}; a restart resumes from the committed offsets.", why,
                    why.endsWith(".") ? "" : ".", totals);
        }
        return ExitStatus.FAILURE;
    }

    /**
     * The first signal: a stop, and never a start again, though the engine failed first and its drain was under way
     * (the stop reason was set then, and the signal's request is a no-op: the command started the engine again).
     */
    private void signalled() {
        signalled = true;
        requestStop(SIGNAL);
    }

    /** Whether the engine failed by itself (no signal asked for the stop) in a way the story starts again after. */
    private boolean startsAgain() {
        return !signalled && engine.health() == Health.FAILED
                && engine.failure().map(story::startsAgainAfter).orElse(false);
    }

    /**
     * The records done without being written (a user reconciling counts needs them beside "records done"), or nothing
     * when every record was written.
     */
    static String givenUp(EngineStats stats) {
        StringBuilder b = new StringBuilder();
        if (stats.deadLettered() > 0) {
            b.append(String.format(Locale.ROOT, "; %,d %s to the dead-letter topic", stats.deadLettered(),
                    stats.deadLettered() == 1 ? "record" : "records"));
        }
        if (stats.skipped() > 0) {
            b.append(String.format(Locale.ROOT, "; %,d %s skipped after failing", stats.skipped(),
                    stats.skipped() == 1 ? "record" : "records"));
        }
        return b.toString();
    }

    /**
     * The lag the run leaves, consumed and durable: after a clean stop they agree (the final commit made every record
     * done durable), after a failure the durable one says what a restart reads again.
     */
    private static String lagLeft(ProgressSample last) {
        if (last.lag() < 0) {
            return "";
        }
        String lag = String.format(Locale.ROOT, "; lag %,d", last.lag());
        if (last.durableLag() > last.lag()) {
            return lag + String.format(Locale.ROOT, ", %,d not yet durable", last.durableLag());
        }
        return last.durableLag() == last.lag() ? lag + ", every record done is durable" : lag;
    }

    /** The engine's failure in words, with this command's advice when records were lost. */
    private String describeFailure(Throwable failure) {
        return Causes.find(failure, RecordsLostException.class)
                .map(lost -> lost.lost() + ". " + story.lostRecordsAdvice(lost))
                .orElseGet(() -> describe(failure));
    }

    /**
     * A failure and its causes in words, without repeating what a cause's message already said, and without the
     * class names that wrapping puts in messages ({@code java.lang.OutOfMemoryError: Java heap space}). Running out of
     * heap is said as such, with what to change.
     */
    public static String describe(Throwable failure) {
        Optional<OutOfMemoryError> heap = Causes.find(failure, OutOfMemoryError.class);
        if (heap.isPresent()) {
            return "the JVM ran out of memory (" + ErrorWords.withoutClassNames(String.valueOf(heap.get().getMessage()))
                    + "); give it more heap (SLUICE_JAVA_OPTS=-Xmx2g for ./sluice), or lower processing.memory-budget "
                    + "or sink.rolling.max-open-files (docs/rolling.md, Memory)";
        }
        StringBuilder b = new StringBuilder(ErrorWords.withoutClassNames(String.valueOf(failure.getMessage())));
        List<Throwable> chain = Causes.of(failure);
        for (int i = 1; i < chain.size() && !(chain.get(i - 1) instanceof ErrorWords.SaidInFull); i++) {
            Throwable cause = chain.get(i);
            // a JSON parser's message without its location, which names a redacted source ("[Source: REDACTED
            // (`StreamReadFeature...` disabled); line: 1, column: 1]"): the words above say where already
            String text = cause instanceof com.fasterxml.jackson.core.JsonProcessingException json
                    ? json.getOriginalMessage() : cause.getMessage();
            String message = text == null ? null : ErrorWords.withoutClassNames(text);
            if (message != null && !b.toString().contains(message)) {
                b.append(": ").append(message);
            }
        }
        if (NO_METADATA.matcher(b).find()) {
            // a producer's words for a cluster that did not answer as much as for a topic that is not there
            b.append(" (no answer about the topic from its cluster in that time: the cluster was unreachable or down, "
                    + "or the topic does not exist there)");
        }
        return b.toString();
    }

    /** Kafka producer's "Topic t not present in metadata after 60000 ms." */
    private static final Pattern NO_METADATA = Pattern.compile("not present in metadata after \\d+ ms");

    /** The second signal: report what a stop now leaves uncommitted, then halt without draining. */
    private void stopNow() {
        StringBuilder b = new StringBuilder("second signal: stopping at once, without draining. Not committed:");
        for (PartitionStats p : engine.partitions()) {
            long read = p.watermark() + p.watermarkGap();
            b.append(String.format(Locale.ROOT, "%n  %s: ", p.partition()));
            if (p.committedOffset() < 0) {
                b.append(String.format(Locale.ROOT, "nothing committed by this run (read up to offset %,d)", read));
            } else {
                b.append(String.format(Locale.ROOT, "from offset %,d (%,d records read after it)", p.committedOffset(),
                        Math.max(0, read - p.committedOffset())));
            }
        }
        b.append(System.lineSeparator()).append(story.uncommittedFate());
        b.append(System.lineSeparator()).append(LEFT_WITHOUT_LEAVING);
        console.clearStatus();
        console.say(b.toString());
        Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
    }
}
