package io.sluice.cli.merge;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.ExitStatus;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.cli.pipeline.MergeFile;
import io.sluice.cli.pipeline.MetricsConfig;
import io.sluice.cli.progress.ProgressReporter;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.cli.run.EngineRun;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.cli.status.MetricsServer;
import io.sluice.merge.Merge;
import io.sluice.merge.MergeConfig;
import io.sluice.merge.MergeDelivery;
import io.sluice.merge.MergeProgress;
import io.sluice.merge.write.MergeCounts;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of a merge as {@code sluice merge} shows it: starts it, shows the progress line until the merge ends (with
 * {@code --until-end}), fails, or a stop is asked for; drains on the first SIGINT/SIGTERM (each output partition
 * commits what it merged), halts at once on a second. A merge has no engine, so this is its own small loop rather
 * than an {@link EngineRun}; the signals, the progress line and the metrics endpoint are the same pieces.
 *
 * <p>Threading: {@link #run} on the calling thread; the signal handlers only set the stop request (or halt).
 */
final class MergeRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");
    private static final Duration TICK = Duration.ofMillis(200);
    private static final Duration LAG_EVERY = Duration.ofSeconds(1);
    private static final Duration LAG_TIMEOUT = Duration.ofSeconds(5);
    /**
     * Without an output partition this long, the run says why that can be: a restart after kill -9 sat 37 to 47 s
     * without a word (a new user's run), waiting for the killed member's session to time out.
     */
    static final Duration CLAIM_WARNING = Duration.ofSeconds(10);

    private final MergeFile file;
    private final MergeConfig config;
    private final MetricsConfig metrics;
    private final Console console;
    private final AtomicReference<String> stopReason = new AtomicReference<>();

    MergeRun(MergeFile file, MergeConfig config, MetricsConfig metrics, Console console) {
        this.file = file;
        this.config = config;
        this.metrics = metrics;
        this.console = console;
    }

    /** Runs the merge to its end or a signal, and returns the exit status. */
    int run(Duration progressEvery) throws RunFailure {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.startIfAsked(registry, metrics.endpoint());
                MergeProgress progress = MergeProgress.of(config, LAG_TIMEOUT)) {
            Merge merge = start();
            if (server != null) {
                server.watch(new MergeHealth(merge, () -> stopReason.get() != null));
            }
            LOG.info("merging {}", file.describe());
            try (LagSampler lag = new LagSampler(config, progress, LAG_EVERY)) {
                return run(merge, registry, lag, progressEvery);
            }
        }
    }

    /** Runs a started merge until a stop, its failure or its end, with its line, meters and lag. */
    private int run(Merge merge, PrometheusMeterRegistry registry, LagSampler lag, Duration progressEvery) {
        MergeMeters.register(registry, config, merge.counts(), lag);
        long start = System.nanoTime();
        ShutdownSignals signals = ShutdownSignals.install(() -> requestStop("signal received"), this::stopNow);
        ProgressReporter reporter = new ProgressReporter(console, "merging", progressEvery);
        Throwable failure = null;
        try {
            failure = loop(merge, reporter, lag);
        } finally {
            requestStop("the run is ending"); // no-op when a stop was requested already
            failure = drain(merge, failure);
            signals.close();
            reporter.finish();
        }
        return report(merge.counts(), failure, Duration.ofNanos(System.nanoTime() - start));
    }

    private Merge start() throws RunFailure {
        try {
            return Merge.start(config, file.ownersMember());
        } catch (Exception e) {
            LOG.debug("the merge did not start", e);
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new RunFailure("merge " + config.name() + " cannot start: " + EngineRun.describe(cause), e);
        }
    }

    /**
     * The inputs whose cluster does not answer, for the line: their lag cannot be read meanwhile (the line drops it),
     * and the merge goes on without them after max-wait.
     */
    private static String unanswered(Merge merge) {
        StringBuilder s = new StringBuilder();
        merge.inputsUnanswered().forEach((input, silent) -> s.append(" · no answer from input ").append(input)
                .append(" for ").append(Units.duration(silent)).append(" (retrying)"));
        return s.toString();
    }

    private void requestStop(String reason) {
        stopReason.compareAndSet(null, reason);
    }

    /** Until a stop is asked for, the merge fails, or (with --until-end) it is merged to the inputs' ends. */
    private Throwable loop(Merge merge, ProgressReporter reporter, LagSampler lag) {
        long start = System.nanoTime();
        boolean warned = false;
        while (true) {
            if (!warned && merge.partitions() == 0 && System.nanoTime() - start > CLAIM_WARNING.toNanos()) {
                warned = true;
                long session = ((Number) file.ownersMember().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG))
                        .longValue();
                LOG.warn("no output partition claimed after {}: other instances of merge {} hold them all, or one "
                        + "that stopped without leaving (kill -9, a second Ctrl-C) holds its partitions until its "
                        + "session times out (merge.session-timeout, {})", Units.duration(CLAIM_WARNING),
                        config.name(), Units.duration(Duration.ofMillis(session)));
            }
            InputLags lags = lag.last();
            MergeCounts counts = merge.counts();
            long lagTotal = lags == null ? -1 : lags.total();
            ProgressSample sample = new ProgressSample(System.nanoTime(), counts.merged(), -1, lagTotal, lagTotal, -1,
                    null, null, merge.targetUnreachable().orElse(null));
            reporter.update(sample, String.format(Locale.ROOT, "%s late · %s dead letters%s%s",
                    Units.count(counts.late()), Units.count(counts.deadLettered()),
                    lags == null ? "" : " · behind: " + lags.perInput(), unanswered(merge)));
            if (stopReason.get() != null) {
                return null;
            }
            if (merge.failure().isCompletedExceptionally()) {
                return cause(merge);
            }
            try {
                if (!config.untilEnd()) {
                    Thread.sleep(TICK.toMillis());
                } else if (merge.awaitEnd(TICK)) {
                    requestStop("every input partition is merged to its end");
                    return null;
                }
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return e;
            } catch (Exception e) {
                return e;
            }
        }
    }

    private static Throwable cause(Merge merge) {
        return new MergeHealth(merge, () -> false).failure().orElse(null);
    }

    /** Closes the merge: each output partition it owns commits what it merged; a failure to do so is the run's. */
    private Throwable drain(Merge merge, Throwable failure) {
        if (failure != null) {
            LOG.info("stopping (the merge failed): each output partition commits what it merged");
        } else {
            LOG.info("stopping ({}): each output partition commits what it merged; a second Ctrl-C stops at once",
                    stopReason.get());
        }
        try {
            merge.close();
            return failure;
        } catch (Exception e) {
            LOG.debug("the merge did not close cleanly", e);
            return failure != null ? failure : e;
        }
    }

    private int report(MergeCounts counts, Throwable failure, Duration elapsed) {
        String totals = String.format(Locale.ROOT, "%,d %s merged, %,d late, %,d %s, in %.1f s",
                counts.merged(), counts.merged() == 1 ? "record" : "records", counts.late(), counts.deadLettered(),
                counts.deadLettered() == 1 ? "dead letter" : "dead letters", elapsed.toMillis() / 1000.0)
                // a run that set records aside says why once: 38,128 dead letters and no reason sent users to a reader
                + counts.firstDeadLetter().map(first -> " (the first: " + first + ")").orElse("");
        if (failure == null) {
            LOG.info("stopped cleanly: {}", totals);
            return ExitStatus.OK;
        }
        LOG.debug("the merge's failure", failure);
        String why = EngineRun.describe(failure);
        LOG.error("stopped with an error: {}{} {}; a restart resumes from the committed positions.", why,
                why.endsWith(".") ? "" : ".", totals);
        return ExitStatus.FAILURE;
    }

    /** The second signal: say what a stop now leaves uncommitted, then halt without draining. */
    private void stopNow() {
        console.clearStatus();
        console.say(config.delivery() == MergeDelivery.EXACTLY_ONCE
                ? "second signal: stopping at once, without draining. What each output partition merged since its "
                        + "last commit is in open transactions, which the next start aborts: read_committed readers "
                        + "never see it, and a restart merges it again from the committed positions."
                : "second signal: stopping at once, without draining. What each output partition merged since its "
                        + "last commit is written but not committed: a restart writes it again from the committed "
                        + "positions (at-least-once).");
        Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
    }
}
