package io.sluice.core.commit;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Which broker of the cluster a run writes to owes this run an answer while the cluster's other brokers answer: a
 * network fault between this process and that one broker, or the broker hangs, while the cluster still sees it. The
 * producers' per-broker counts say who owes: a producer that sent a broker requests and heard nothing back since
 * (its {@code producer-node-metrics} request and response counts). Whether the rest of the cluster answers, and what
 * the silent broker does for this run, a {@link Probe} asks the cluster; it asks only while something owes an answer
 * for {@link #ASK_AFTER}, at most one question at a time. A broker is said once it has owed for the grace, the
 * cluster answered since, and it does something for this run (a broker the producers last asked before its
 * partitions moved away owes nothing that matters); once more when it answers again, or when this run no longer needs
 * it. A gap between looks of {@link Silence#STALLED} or more was this process not running (as {@link Silence}).
 *
 * <p>Threading: one thread at a time (its owner's lock); the probe's answers are read at the next look.
 */
public final class TargetBrokers {

    /** Owed this long without another broker heard from, the cluster is asked whether it answers. */
    static final Duration ASK_AFTER = Duration.ofSeconds(5);
    /** How long a question may take, and the least time between two. */
    static final Duration QUESTION = Duration.ofSeconds(5);

    /** Asks the cluster which brokers it has and what each does for this run. */
    public interface Probe {
        /** The cluster's answer within {@code timeout}, or a failed future. */
        CompletableFuture<Answer> ask(Duration timeout);
    }

    /**
     * The cluster's answer: its live brokers (id to host:port) and what each does for this run, in words (for example
     * "leads [orders-0], which this process writes to").
     */
    public record Answer(Map<Integer, String> brokers, Map<Integer, List<String>> roles) {
        public Answer {
            brokers = Map.copyOf(brokers);
            roles = Map.copyOf(roles);
        }
    }

    /** One producer's counts for one broker, and since when it owes an answer (-1: it owes none). */
    private static final class Counts {
        final int broker;
        double requests;
        double responses;
        long owedSince = -1;

        Counts(int broker, double requests, double responses) {
            this.broker = broker;
            this.requests = requests;
            this.responses = responses;
        }
    }

    private final String what;
    private final Duration grace;
    private final Probe probe;
    /** By the producer's response count for the broker (a producer keeps each metric; its views are new each call). */
    private final Map<Metric, Counts> counts = new IdentityHashMap<>();
    /** Brokers said to owe an answer, and since when they owe. */
    private final Map<Integer, Long> said = new TreeMap<>();
    /** Brokers that owe an answer the cluster says this run does not need (their partitions moved away). */
    private final Set<Integer> excused = new HashSet<>();
    private long lookedAt;
    private CompletableFuture<Answer> question;
    private long askedAt;
    /** The last answer, and the look that read it. */
    private Answer answer;
    private long answeredAt;

    /**
     * @param what  what the brokers are, for the words ("target broker", "output broker")
     * @param grace how long a broker may owe an answer before it is said
     */
    public TargetBrokers(String what, Duration grace, Probe probe) {
        this.what = what;
        this.grace = grace;
        this.probe = probe;
    }

    /**
     * One look at {@code now} (nanos) at the producers' metrics; returns whether the cluster answered a question since
     * the last look (proof that it answers, beside the producers' own responses).
     */
    public boolean look(long now, Collection<? extends Map<MetricName, ? extends Metric>> producers) {
        boolean stalled = lookedAt != 0 && now - lookedAt >= Silence.STALLED.toNanos();
        lookedAt = now;
        count(now, producers, stalled);
        Map<Integer, Long> owed = owed();
        excused.retainAll(owed.keySet());
        boolean answered = read(now, owed);
        judge(now, owed);
        ask(now, owed);
        return answered;
    }

    /** The brokers said to owe an answer now, with how long as of {@code now}. */
    public Map<Integer, Duration> silent(long now) {
        Map<Integer, Duration> silent = new TreeMap<>();
        said.forEach((broker, since) -> silent.put(broker, Duration.ofNanos(now - since)));
        return silent;
    }

    private void count(long now, Collection<? extends Map<MetricName, ? extends Metric>> producers, boolean stalled) {
        Set<Metric> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map<MetricName, ? extends Metric> metrics : producers) {
            Map<Integer, Metric[]> byBroker = new HashMap<>();
            metrics.forEach((name, metric) -> {
                int broker = broker(name);
                if (broker >= 0) {
                    Metric[] pair = byBroker.computeIfAbsent(broker, b -> new Metric[2]);
                    pair[name.name().equals("request-total") ? 0 : 1] = metric;
                }
            });
            byBroker.forEach((broker, pair) -> {
                if (pair[0] == null || pair[1] == null) {
                    return;
                }
                seen.add(pair[1]);
                double requests = value(pair[0]);
                double responses = value(pair[1]);
                Counts c = counts.get(pair[1]);
                if (c == null) {
                    counts.put(pair[1], new Counts(broker, requests, responses));
                    return;
                }
                if (responses != c.responses) {
                    c.owedSince = -1;
                } else if (requests != c.requests && c.owedSince < 0) {
                    c.owedSince = now;
                } else if (stalled && c.owedSince >= 0) {
                    c.owedSince = now; // this process did not run: the broker is not to blame for that time
                }
                c.requests = requests;
                c.responses = responses;
            });
        }
        counts.keySet().retainAll(seen);
    }

    /**
     * Reads the question's answer once it came; returns whether it came (a failed question is no answer). A broker
     * that owes since before the answer and does nothing for this run is excused until it owes nothing.
     */
    private boolean read(long now, Map<Integer, Long> owed) {
        if (question == null || !question.isDone()) {
            return false;
        }
        CompletableFuture<Answer> done = question;
        question = null;
        if (done.isCompletedExceptionally()) {
            return false;
        }
        answer = done.join();
        answeredAt = now;
        owed.forEach((broker, since) -> {
            if (since < now && !needed(broker) && excused.add(broker) && said.containsKey(broker)) {
                LOG.info("{} {} is no longer needed here (after {} s without an answer): the cluster says it {}",
                        what, broker, Duration.ofNanos(now - said.remove(broker)).toSeconds(),
                        answer.brokers().containsKey(broker) ? "no longer does anything for this run"
                                : "is no longer one of its brokers");
            }
        });
        return true;
    }

    /** Each broker some producer owes an answer, since when (the earliest). */
    private Map<Integer, Long> owed() {
        Map<Integer, Long> owed = new TreeMap<>();
        for (Counts c : counts.values()) {
            if (c.owedSince >= 0) {
                owed.merge(c.broker, c.owedSince, Math::min);
            }
        }
        return owed;
    }

    private void judge(long now, Map<Integer, Long> owed) {
        for (var it = said.entrySet().iterator(); it.hasNext();) {
            var e = it.next();
            if (!owed.containsKey(e.getKey())) {
                it.remove();
                LOG.info("{} {} answers again, after {} s; what waited for it goes on", what, e.getKey(),
                        Duration.ofNanos(now - e.getValue()).toSeconds());
            }
        }
        owed.forEach((broker, since) -> {
            if (!said.containsKey(broker) && !excused.contains(broker) && now - since >= grace.toNanos()
                    && answer != null && answeredAt > since && needed(broker)) {
                said.put(broker, since);
                LOG.warn("{} {} ({}) has not answered for {} s while the cluster's other brokers do; it {}. A network"
                        + " fault between this process and that broker, or the broker hangs: what waits for it is"
                        + " retried (up to delivery.timeout.ms), nothing is lost, and it goes on when the broker"
                        + " answers", what, broker, answer.brokers().get(broker),
                        Duration.ofNanos(now - since).toSeconds(), roles(answer.roles().get(broker)));
            }
        });
    }

    /**
     * Asks the cluster, every {@link #QUESTION}, while a broker not excused has owed an answer for {@link #ASK_AFTER}:
     * whether the rest of the cluster answers (the producers may be asking nothing of it), and whether this run still
     * needs that broker.
     */
    private void ask(long now, Map<Integer, Long> owed) {
        boolean owing = owed.entrySet().stream().anyMatch(e -> !excused.contains(e.getKey())
                && now - e.getValue() >= ASK_AFTER.toNanos());
        if (question == null && owing && (askedAt == 0 || now - askedAt >= QUESTION.toNanos())) {
            askedAt = now;
            question = probe.ask(QUESTION);
        }
    }

    /** "a", "a; and b", "a; b; and c". */
    private static String roles(List<String> roles) {
        int last = roles.size() - 1;
        return last == 0 ? roles.get(0) : String.join("; ", roles.subList(0, last)) + "; and " + roles.get(last);
    }

    private boolean needed(int broker) {
        return answer.brokers().containsKey(broker) && answer.roles().containsKey(broker);
    }

    /** The broker a per-broker producer metric is about, or -1 (a producer-wide metric, a bootstrap connection). */
    private static int broker(MetricName name) {
        if (!name.group().equals("producer-node-metrics")
                || !(name.name().equals("request-total") || name.name().equals("response-total"))) {
            return -1;
        }
        String node = name.tags().get("node-id");
        if (node == null || !node.startsWith("node-")) {
            return -1;
        }
        try {
            return Integer.parseInt(node.substring("node-".length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static double value(Metric metric) {
        return metric.metricValue() instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
