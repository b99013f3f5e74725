package io.sluice.cli.produce;

import io.sluice.cli.console.Units;
import io.sluice.cli.run.EngineRun;
import io.sluice.producer.DeliveryFailure;
import io.sluice.producer.DeliverySnapshot;
import io.sluice.producer.LossRisk;
import io.sluice.producer.input.BadInputException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The words that end every {@code sluice produce}: how many records were read, acknowledged, failed and left without
 * an answer, bytes, rates and acknowledgement latency, the first failures with their file and line, why the run
 * ended early, and the settings that can lose records when they were allowed.
 *
 * @param topic    where the records went
 * @param risks    the settings accepted with --allow-loss
 * @param accepted what "acknowledged" means in this run ("acknowledged" or "committed")
 */
record ProduceSummary(String topic, List<LossRisk> risks, String accepted) {

    String text(DeliverySnapshot s, Duration elapsed, boolean readToEnd, boolean signalled, Throwable failure,
            Optional<String> resumeNote, String noAnswerWhy) {
        double seconds = Math.max(elapsed.toNanos() / 1e9, 1e-3);
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "produced to %s: %,d %s read, %,d %s, %,d failed, %,d without an "
                + "answer", topic, s.sent(), records(s.sent()), s.acknowledged(), accepted, s.failed(), s.pending()));
        String latency = accepted.equals("committed") ? "commit" : "acknowledgement";
        b.append(String.format(Locale.ROOT, "%n  %s sent in %.1f s (%s records/s, %s/s); %s", Units.bytes(
                s.bytesSent()), seconds, Units.compact(s.sent() / seconds), Units.bytes(s.bytesSent() / seconds),
                s.acknowledged() == 0 ? "no " + latency + ", so no latency to show" // it read "p50 0.0 ms"
                        : String.format(Locale.ROOT, "%s latency p50 %s, p99 %s, max %s", latency,
                                millis(s.ackP50()), millis(s.ackP99()), millis(s.ackMax()))));
        if (!s.firstFailures().isEmpty()) {
            b.append(String.format(Locale.ROOT, "%n  first failures:"));
            for (DeliveryFailure f : s.firstFailures()) {
                b.append(String.format(Locale.ROOT, "%n    %s: %s", f.origin(), reason(f)));
            }
        }
        if (s.pending() > 0) {
            b.append(String.format(Locale.ROOT, "%n  %,d %s no answer %s: they may or may not be in the topic",
                    s.pending(), s.pending() == 1 ? "record had" : "records had", noAnswerWhy));
        }
        if (failure instanceof OutOfMemoryError) {
            b.append(String.format(Locale.ROOT, "%n  stopped early: the JVM ran out of memory while reading; give it "
                    + "more heap (SLUICE_JAVA_OPTS=-Xmx2g ./sluice produce ...); the rest of the input was not read"));
        } else if (failure != null) {
            b.append(String.format(Locale.ROOT, "%n  stopped early: %s", EngineRun.describe(failure)));
        } else if (signalled && !readToEnd) {
            b.append(String.format(Locale.ROOT, "%n  stopped by a signal: the rest of the input was not read (the exit "
                    + "status says so: 130 after Ctrl-C, 143 after SIGTERM)"));
        }
        resumeNote.ifPresent(note -> b.append(String.format(Locale.ROOT, "%n  %s", note)));
        for (LossRisk risk : risks) {
            b.append(String.format(Locale.ROOT, "%n  allowed by --allow-loss: %s", risk));
        }
        return b.toString();
    }

    /** A bad line says what was expected; a producer error says its kind in words ({@link DeliveryFailure#reason}). */
    private static String reason(DeliveryFailure f) {
        if (f.error() instanceof BadInputException bad) {
            return (bad.malformed() ? "malformed line: " : "not sent, the topic would refuse it: ")
                    + f.error().getMessage();
        }
        return f.reason();
    }

    private static String records(long n) {
        return n == 1 ? "record" : "records";
    }

    private static String millis(Duration d) {
        return String.format(Locale.ROOT, "%.1f ms", d.toNanos() / 1e6);
    }
}
