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
import io.sluice.cli.run.RestartPause;
import io.sluice.cli.run.ShutdownSignals;
import io.sluice.cli.run.TransientFailure;
import io.sluice.cli.status.MetricsServer;
import io.sluice.cli.status.RunHealth;
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
    private static final String SIGNAL = "signal received";
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
    /** Whether a signal asked for a stop, at any time: written by the signal's thread. */
    private volatile boolean signalled;
    /** Why the last stop went without the merge's last commits (its output did not answer), or null. */
    private volatile String leftUncommitted;

    MergeRun(MergeFile file, MergeConfig config, MetricsConfig metrics, Console console) {
        this.file = file;
        this.config = config;
        this.metrics = metrics;
        this.console = console;
    }

    /**
     * Runs the merge to its end or a signal, and returns the exit status. After a failure a new merge cures
     * ({@link TransientFailure}: an output cluster down for longer than its producers wait, say), starts it again after
     * a {@link RestartPause}, for as long as it takes, unless the run is bounded ({@code --until-end}): a merge is a
     * service, as a mirror is.
     */
    int run(Duration progressEvery) throws RunFailure {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.startIfAsked(registry, metrics.endpoint());
                MergeProgress progress = MergeProgress.of(config, LAG_TIMEOUT);
                LagSampler lag = new LagSampler(config, progress, LAG_EVERY)) {
            MergeCounts counts = new MergeCounts(config.inputs().size()); // the command's: every start counts on
            MergeMeters.register(registry, config, counts, lag);
            RestartPause pause = new RestartPause("sluice merge", "the merge", LOG::info);
            long start = System.nanoTime();
            int starts = 0;
            ProgressReporter reporter = new ProgressReporter(console, "merging", progressEvery);
            try {
                while (true) {
                    Merge merge = null;
                    try {
                        merge = start(counts);
                    } catch (RunFailure e) {
                        if (!pause.restarting() || !restartable(e.getCause())) {
                            throw e; // the first start's failure is the command's, in the words it has
                        }
                        pause.started();
                        LOG.warn("the merge could not start again: {}", e.getMessage());
                        if (server != null) {
                            server.watch(RunHealth.restarting("the merge", e.getMessage()));
                        }
                    }
                    long ranFrom = System.nanoTime();
                    if (merge != null && starts++ == 0) {
                        LOG.info("merging {}", file.describe());
                    }
                    if (merge != null) {
                        if (server != null) {
                            server.watch(new MergeHealth(merge, () -> stopReason.get() != null));
                        }
                        Throwable failure = run(merge, reporter, lag, starts > 1);
                        pause.started();
                        if (!startsAgainAfter(failure)) {
                            reporter.finish();
                            return report(counts, failure, Duration.ofNanos(System.nanoTime() - start));
                        }
                        String totals = totals(counts, Duration.ofNanos(System.nanoTime() - start));
                        String why = EngineRun.describe(failure);
                        LOG.warn("stopped with an error: {}{} {}; starting again from the committed positions.", why,
                                why.endsWith(".") ? "" : ".", totals);
                        stopReason.set(null);
                        if (server != null) {
                            server.watch(RunHealth.restarting("the merge", why));
                        }
                    }
                    pause.await(merge == null ? null : Duration.ofNanos(System.nanoTime() - ranFrom));
                }
            } finally {
                pause.started();
                reporter.finish();
            }
        }
    }

    /** Runs a started merge until a stop, its failure or its end; closes it, and returns its failure if any. */
    private Throwable run(Merge merge, ProgressReporter reporter, LagSampler lag, boolean restarted) {
        ShutdownSignals signals = ShutdownSignals.install(() -> {
            signalled = true; // read at the end: a signal in a drain after a failure is a stop, not a restart
            requestStop(SIGNAL);
        }, this::stopNow);
        Throwable failure = null;
        try {
            failure = loop(merge, reporter, lag, restarted);
        } finally {
            requestStop("the run is ending"); // no-op when a stop was requested already
            failure = drain(merge, failure);
            signals.close();
        }
        return failure;
    }

    /**
     * Whether the merge failed by itself (no signal asked for the stop) in a way a new merge cures; not a bounded run:
     * its end is the inputs' at its start, and whatever runs it (a cron job) runs it again.
     */
    private boolean startsAgainAfter(Throwable failure) {
        return failure != null && !signalled && restartable(failure);
    }

    private boolean restartable(Throwable failure) {
        return !config.untilEnd() && TransientFailure.is(failure);
    }

    private Merge start(MergeCounts counts) throws RunFailure {
        try {
            return Merge.start(config, file.ownersMember(), counts);
        } catch (Exception e) {
            LOG.debug("the merge did not start", e);
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new RunFailure("merge " + config.name() + " cannot start: " + EngineRun.describe(cause), cause);
        }
    }

    /**
     * The inputs whose cluster does not answer, for the line: their lag cannot be read meanwhile (the line drops it),
     * and the merge goes on without them after max-wait; then the input partitions without a leader, and the input
     * brokers that stopped answering while their cluster's others answer.
     */
    private static String unanswered(Merge merge) {
        StringBuilder s = new StringBuilder();
        merge.inputsUnanswered().forEach((input, silent) -> s.append(" · no answer from input ").append(input)
                .append(" for ").append(Units.duration(silent)).append(" (retrying)"));
        merge.inputPartitionsWithoutLeader().forEach((input, partitions) -> partitions.forEach((p, d) -> s
                .append(" · input ").append(input).append(" partition ").append(p).append(" has no leader for ")
                .append(Units.duration(d))));
        merge.inputBrokersUnanswered().forEach((input, brokers) -> brokers.forEach((b, d) -> s
                .append(" · no answer from input ").append(input).append(" broker ").append(b).append(" for ")
                .append(Units.duration(d))));
        merge.targetBrokersUnanswered().forEach((b, d) -> s.append(" · no answer from target broker ").append(b)
                .append(" for ").append(Units.duration(d)));
        return s.toString();
    }

    private void requestStop(String reason) {
        stopReason.compareAndSet(null, reason);
    }

    /**
     * Until a stop is asked for, the merge fails, or (with --until-end) it is merged to the inputs' ends;
     * {@code restarted}: a merge before this one failed in this command.
     */
    private Throwable loop(Merge merge, ProgressReporter reporter, LagSampler lag, boolean restarted) {
        long start = System.nanoTime();
        boolean warned = false;
        while (true) {
            if (!warned && merge.partitions() == 0 && System.nanoTime() - start > CLAIM_WARNING.toNanos()) {
                warned = true;
                long session = ((Number) file.ownersMember().get(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG))
                        .longValue();
                LOG.warn("no output partition claimed after {}: other instances of merge {} hold them all, or one "
                        + "that stopped without leaving ({}) holds its partitions until its session times out "
                        + "(merge.session-timeout, {})", Units.duration(CLAIM_WARNING), config.name(),
                        restarted ? "the merge that failed before this start, which could not leave while its "
                                + "cluster was away" : "kill -9, a second Ctrl-C",
                        Units.duration(Duration.ofMillis(session)));
            }
            InputLags lags = lag.last();
            MergeCounts counts = merge.counts();
            long lagTotal = lags == null ? -1 : lags.lineTotal();
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
            LOG.info("stopping (the merge failed): each output partition commits what it merged; a second Ctrl-C "
                    + "stops at once");
        } else {
            LOG.info("stopping ({}): each output partition commits what it merged; a second Ctrl-C stops at once",
                    stopReason.get());
        }
        try {
            merge.close();
            leftUncommitted = merge.stoppedWithoutLastCommits().orElse(null);
            return failure;
        } catch (Exception e) {
            LOG.debug("the merge did not close cleanly", e);
            return failure != null ? failure : e;
        }
    }

    private static String totals(MergeCounts counts, Duration elapsed) {
        return String.format(Locale.ROOT, "%,d %s merged, %,d late, %,d %s, in %.1f s",
                counts.merged(), counts.merged() == 1 ? "record" : "records", counts.late(), counts.deadLettered(),
                counts.deadLettered() == 1 ? "dead letter" : "dead letters", elapsed.toMillis() / 1000.0)
                // a run that set records aside says why once: 38,128 dead letters and no reason sent users to a reader
                + (counts.deadLettered() == 0 ? ""
                        : counts.firstDeadLetter().map(first -> " (the first: " + first + ")").orElse(""));
    }

    private int report(MergeCounts counts, Throwable failure, Duration elapsed) {
        String totals = totals(counts, elapsed);
        if (failure == null && leftUncommitted != null) {
            if (signalled) { // the stop asked for, and nothing lost: the next start merges it again
                LOG.warn("stopped without the last commits ({}): {}. What was merged since the last commits was let "
                        + "go of; the next start merges it again.", leftUncommitted, totals);
                return ExitStatus.OK;
            }
            failure = new IllegalStateException("the merge ended without its last commits: " + leftUncommitted);
        }
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
                        + "last commit is in transactions whose commit was not seen: each commits with its positions "
                        + "(one under way may still land) or is aborted by the next start, so read_committed readers "
                        + "see each record once, and a restart merges the rest from the committed positions."
                : "second signal: stopping at once, without draining. What each output partition merged since its "
                        + "last commit is written but not committed: a restart writes it again from the committed "
                        + "positions (at-least-once).");
        Runtime.getRuntime().halt(ExitStatus.INTERRUPTED);
    }
}
