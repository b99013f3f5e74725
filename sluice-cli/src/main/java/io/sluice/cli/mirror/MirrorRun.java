package io.sluice.cli.mirror;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.RunFailure;
import io.sluice.cli.console.Console;
import io.sluice.cli.console.Units;
import io.sluice.cli.pipeline.MetricsConfig;
import io.sluice.cli.pipeline.MirrorFile;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.cli.run.EngineRun;
import io.sluice.cli.run.RestartPause;
import io.sluice.cli.run.TransientFailure;
import io.sluice.cli.status.MetricsServer;
import io.sluice.cli.status.RunHealth;
import io.sluice.core.RecordsLostException;
import io.sluice.mirror.Mirror;
import io.sluice.mirror.MirrorConfig;
import io.sluice.mirror.MirrorDelivery;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a mirror file until told to stop (or to the end offsets seen at start, with {@code --until-end}): starts the
 * mirror on a meter registry (served over HTTP when asked), and hands its engine to an {@link EngineRun} for the
 * progress line and the drain.
 *
 * <p>Threading: {@link #run} on the calling thread.
 */
final class MirrorRun {

    private static final Logger LOG = LoggerFactory.getLogger("sluice.run");

    private final MirrorFile file;
    private final MirrorConfig config;
    private final MetricsConfig metrics;
    private final Console console;

    MirrorRun(MirrorFile file, MirrorConfig config, MetricsConfig metrics, Console console) {
        this.file = file;
        this.config = config;
        this.metrics = metrics;
        this.console = console;
    }

    /**
     * Runs the mirror; after a failure a new engine cures ({@link TransientFailure}: a target that did not answer in
     * time, say), starts it again after a {@link RestartPause}, for as long as it takes: a mirror is a service, and
     * each start says why.
     */
    EngineRun.Outcome run(Duration progressEvery) throws RunFailure {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.startIfAsked(registry, metrics.endpoint())) {
            LOG.info("mirroring {}", file.describe());
            RestartPause pause = new RestartPause("sluice mirror", "the mirror", LOG::info);
            long started = System.nanoTime(); // the stop line's time is the command's, across its engines
            Mirror.Counts before = new Mirror.Counts(0, 0, 0, 0); // of the engines before this one: the stop line's
            while (true) {
                EngineRun.Outcome outcome = null;
                String why = null; // of a start again
                long copiedUntilNow = before.copied();
                try (Mirror mirror = start(registry)) {
                    if (server != null) {
                        server.watch(mirror.engine());
                    }
                    MirrorStory story = new MirrorStory(mirror, before, started);
                    try {
                        outcome = new EngineRun(mirror.engine(), console, null, story).run("mirroring", progressEvery);
                    } finally {
                        before = story.counts();
                    }
                    why = mirror.engine().failure().map(EngineRun::describe).orElse("a failure");
                } catch (RunFailure e) {
                    if (!pause.restarting() || !TransientFailure.is(e.getCause())) {
                        throw e; // the first start's failure is the command's: the clusters were probed before it
                    }
                    LOG.warn("the mirror could not start again: {}", e.getMessage());
                    why = e.getMessage();
                } finally {
                    pause.started();
                }
                if (outcome != null && !outcome.startsAgain()) {
                    return outcome;
                }
                if (server != null) {
                    server.watch(RunHealth.restarting("the mirror", why));
                }
                pause.await(outcome == null ? null : outcome.elapsed(), before.copied() > copiedUntilNow);
            }
        }
    }

    private Mirror start(PrometheusMeterRegistry registry) throws RunFailure {
        try {
            return Mirror.start(config, registry);
        } catch (RuntimeException e) {
            // a refusal at start (the same cluster both ways, a target topic that differs...), or a client that could
            // not be made (a bootstrap name that does not resolve while the target is away): words, not a class
            throw new RunFailure(EngineRun.describe(e), e);
        }
    }

    /** What a mirror run's messages say. */
    private final class MirrorStory implements EngineRun.Story {
        private final Mirror mirror;
        private final Mirror.Counts before;
        private final long commandStarted;

        /**
         * @param before what the engines this command ran before this one copied
         * @param commandStarted when the command started its first engine ({@link System#nanoTime})
         */
        MirrorStory(Mirror mirror, Mirror.Counts before, long commandStarted) {
            this.mirror = mirror;
            this.before = before;
            this.commandStarted = commandStarted;
        }

        /** The whole command's counts: this engine's and those before it. */
        Mirror.Counts counts() {
            Mirror.Counts now = mirror.counts();
            return new Mirror.Counts(before.copied() + now.copied(), before.copiedBytes() + now.copiedBytes(),
                    before.cameFromTarget() + now.cameFromTarget(), before.sent() + now.sent());
        }

        @Override
        public String noAssignmentHint() {
            return "are both clusters reachable, do the topics exist, or do other instances of mirror " + config.name()
                    + " hold every partition? One stopped by kill -9 or a second Ctrl-C holds its partitions until its "
                    + "session times out (session.timeout.ms, 45 s by default).";
        }

        @Override
        public String drainMessage() {
            return "finishing the copies under way, then committing them";
        }

        @Override
        public Optional<Duration> targetUnreachable() {
            return mirror.targetUnreachable();
        }

        @Override
        public Map<Integer, Duration> targetBrokersUnanswered() {
            return mirror.targetBrokersUnanswered();
        }

        @Override
        public String totals(ProgressSample last, Duration engineElapsed) {
            Mirror.Counts counts = counts();
            // the counts are the command's, so is the time: the last engine's alone (after a restart) made a rate
            // from them that was never reached (a chaos run)
            Duration elapsed = Duration.ofNanos(System.nanoTime() - commandStarted);
            String back = counts.cameFromTarget() == 0 ? "" : String.format(Locale.ROOT,
                    ", %,d not copied back to the cluster they came from", counts.cameFromTarget());
            // copies whose commit did not come: exactly once, gone with their transaction (a fenced instance's, one
            // stopped at once); at least once, in the target, to be copied again by the next owner. This engine's
            // only: an earlier engine's were aborted or copied again by its successor, and counting them again at
            // every stop said a fate long settled (a chaos run)
            Mirror.Counts now = mirror.counts();
            long uncommitted = now.sent() - now.copied();
            String notCommitted = uncommitted <= 0 ? "" : String.format(Locale.ROOT, ", %,d more sent %s",
                    uncommitted, config.delivery() == MirrorDelivery.EXACTLY_ONCE
                            ? "in transactions whose commit was not seen (each commits with its progress or is "
                                    + "aborted: read_committed readers see each copy once)"
                            : "without a commit (a restart copies them again)");
            return String.format(Locale.ROOT, "%,d %s copied and committed (%s)%s%s, in %.1f s", counts.copied(),
                    counts.copied() == 1 ? "record" : "records", Units.bytes(counts.copiedBytes()), notCommitted, back,
                    elapsed.toMillis() / 1000.0);
        }

        @Override
        public String lostRecordsAdvice(RecordsLostException lost) {
            // a new mirror.name, the advice before, copies every topic of the mirror again on top of the copies
            return new GapAdvice(config).of(lost);
        }

        /** Not a bounded run: its end is the source's at its start, and a cron job that runs it runs it again. */
        @Override
        public boolean startsAgainAfter(Throwable failure) {
            return !config.untilEnd() && TransientFailure.is(failure);
        }

        @Override
        public String uncommittedFate() {
            return config.delivery() == MirrorDelivery.EXACTLY_ONCE
                    // a commit under way when the stop let go of it may still land, with its progress: the words
                    // hold either way
                    ? "Their copies are in transactions whose commit was not seen: each commits with its progress "
                            + "(one under way may still have landed) or is aborted by the next start, so read_committed "
                            + "readers see each copy once, and a restart copies the rest from the committed progress."
                    : "Some of their copies may be in the target already; a restart copies them again "
                            + "(at-least-once).";
        }
    }
}
