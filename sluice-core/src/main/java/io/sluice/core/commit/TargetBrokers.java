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
 * network fault between this process and that one broker, or the broker hangs, while the cluster still sees it. A
 * producer that waits (it holds records, or a commit waits) and has requests out to a broker with no answer since
 * ({@link OutstandingRequests}, from its per-broker counts) waits for that broker; a broker waited for by some producer,
 * and that answered none of them since, owes the run an answer. Whether the rest of the cluster answers, and what the
 * broker does for this run, a {@link Probe} asks the cluster: only while a broker has owed for {@link #ASK_AFTER}, at
 * most one question at a time. A broker is said once it has owed for the grace, the cluster answered since, and it
 * does something for this run (a broker whose partitions moved away owes nothing that matters: it is excused, and
 * asked about again every {@link #ASK_EXCUSED}); once more when it answers again, when this run no longer needs it,
 * or when nothing waits for it any more. A gap between looks of {@link Silence#STALLED} or more was this process not
 * running (as {@link Silence}).
 *
 * <p>Threading: one thread at a time (its owner's lock); the probe's answers are read at the next look.
 */
public final class TargetBrokers {

    /** Owed this long, the cluster is asked whether it answers and what the broker does for this run. */
    static final Duration ASK_AFTER = Duration.ofSeconds(5);
    /** How long a question may take, and the least time between two. */
    static final Duration QUESTION = Duration.ofSeconds(5);
    /** How often the cluster is asked about brokers excused while they owe: their partitions may come back. */
    static final Duration ASK_EXCUSED = Duration.ofSeconds(30);

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

    /** One producer at a look: its metrics (a live view), and whether it waits for the cluster now. */
    public record Producer(Map<MetricName, ? extends Metric> metrics, boolean waiting) {
    }

    /** One producer's requests to one broker. */
    private static final class Pair {
        final int broker;
        final OutstandingRequests requests;
        boolean waited;

        Pair(int broker, OutstandingRequests requests) {
            this.broker = broker;
            this.requests = requests;
        }
    }

    private final String what;
    private final Duration grace;
    private final Probe probe;
    /** By the producer's response count for the broker (a producer keeps each metric; its views are new each call). */
    private final Map<Metric, Pair> pairs = new IdentityHashMap<>();
    /** When each broker last answered any producer. */
    private final Map<Integer, Long> heardAt = new HashMap<>();
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
     * @param what  what the brokers are, for the words ("target broker")
     * @param grace how long a broker may owe an answer before it is said
     */
    public TargetBrokers(String what, Duration grace, Probe probe) {
        this.what = what;
        this.grace = grace;
        this.probe = probe;
    }

    /**
     * One look at {@code now} (nanos) at the producers; returns whether the cluster answered a question since the last
     * look while a broker this run needs owes nothing (proof that the cluster answers for this run, beside the
     * producers' own responses: an answer while every broker the run needs owes one is not).
     */
    public boolean look(long now, Collection<Producer> producers) {
        boolean stalled = lookedAt != 0 && now - lookedAt >= Silence.STALLED.toNanos();
        lookedAt = now;
        count(now, producers, stalled);
        Map<Integer, Long> owed = owed();
        excused.retainAll(owed.keySet());
        boolean answered = read(now, owed);
        judge(now, owed);
        ask(now, owed);
        return answered && answer.roles().keySet().stream().anyMatch(b -> !owed.containsKey(b));
    }

    /** The brokers said to owe an answer now, with how long as of {@code now}. */
    public Map<Integer, Duration> silent(long now) {
        Map<Integer, Duration> silent = new TreeMap<>();
        said.forEach((broker, since) -> silent.put(broker, Duration.ofNanos(now - since)));
        return silent;
    }

    private void count(long now, Collection<Producer> producers, boolean stalled) {
        Set<Metric> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Producer producer : producers) {
            Map<Integer, Metric[]> byBroker = new HashMap<>();
            producer.metrics().forEach((name, metric) -> {
                int broker = broker(name);
                if (broker >= 0) {
                    Metric[] counts = byBroker.computeIfAbsent(broker, b -> new Metric[2]);
                    counts[name.name().equals("request-total") ? 0 : 1] = metric;
                }
            });
            byBroker.forEach((broker, counts) -> {
                if (counts[0] == null || counts[1] == null) {
                    return;
                }
                seen.add(counts[1]);
                double requests = value(counts[0]);
                double responses = value(counts[1]);
                Pair pair = pairs.get(counts[1]);
                if (pair == null) {
                    pairs.put(counts[1], new Pair(broker, new OutstandingRequests(now, requests, responses)));
                    return;
                }
                if (pair.requests.look(now, requests, responses)) {
                    heardAt.put(broker, now);
                }
                if (stalled) {
                    pair.requests.restart(now);
                }
                pair.waited = producer.waiting();
            });
        }
        pairs.keySet().retainAll(seen);
        if (stalled) {
            heardAt.replaceAll((broker, at) -> now);
            said.replaceAll((broker, since) -> now);
        }
    }

    /**
     * Each broker that a waiting producer waits for, since when (the earliest such producer's wait, and not before the
     * broker last answered any producer: a broker that answers others is not cut off).
     */
    private Map<Integer, Long> owed() {
        Map<Integer, Long> owed = new TreeMap<>();
        for (Pair pair : pairs.values()) {
            long since = pair.requests.waitingSince();
            if (pair.waited && since >= 0) {
                owed.merge(pair.broker, since, Math::min);
            }
        }
        owed.replaceAll((broker, since) -> Math.max(since, heardAt.getOrDefault(broker, 0L)));
        return owed;
    }

    /**
     * Reads the question's answer once it came; returns whether it came (a failed question is no answer). A broker
     * that owes since before the answer and does nothing for this run is excused; one excused that does something for
     * it again is no longer.
     */
    private boolean read(long now, Map<Integer, Long> owed) {
        if (question == null || !question.isDone()) {
            return false;
        }
        CompletableFuture<Answer> done = question;
        question = null;
        if (done.isCompletedExceptionally()) {
            done.exceptionally(e -> {
                LOG.debug("the question to the cluster went unanswered: {}", e.toString());
                return null;
            });
            return false;
        }
        answer = done.join();
        answeredAt = now;
        excused.removeIf(this::needed);
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

    private void judge(long now, Map<Integer, Long> owed) {
        for (var it = said.entrySet().iterator(); it.hasNext();) {
            var e = it.next();
            int broker = e.getKey();
            boolean heard = heardAt.getOrDefault(broker, 0L) > e.getValue();
            if (owed.containsKey(broker) && !heard) {
                continue;
            }
            it.remove();
            long seconds = Duration.ofNanos(now - e.getValue()).toSeconds();
            if (heard) {
                LOG.info("{} {} answers again, after {} s; what waited for it goes on", what, broker, seconds);
            } else {
                // its producers closed (partitions revoked, a failed commit's producer replaced): no answer came
                LOG.info("{} {} is no longer waited for here, after {} s without an answer: what waited for it was"
                        + " closed", what, broker, seconds);
            }
        }
        owed.forEach((broker, since) -> {
            if (!said.containsKey(broker) && !excused.contains(broker) && now - since >= grace.toNanos()
                    && answer != null && answeredAt > since && needed(broker)) {
                said.put(broker, since);
                LOG.warn("{} {} ({}) has not answered for {} s while the cluster's other brokers do; it {}. A network"
                        + " fault between this process and that broker, the broker hangs, or it waits for its"
                        + " followers (acks=all): what waits for it is retried (up to delivery.timeout.ms), nothing is"
                        + " lost, and it goes on when the broker answers", what, broker, answer.brokers().get(broker),
                        Duration.ofNanos(now - since).toSeconds(), roles(answer.roles().get(broker)));
            }
        });
    }

    /**
     * Asks the cluster, every {@link #QUESTION}, while a broker not excused has owed an answer for {@link #ASK_AFTER}:
     * whether the rest of the cluster answers (the producers may be asking nothing of it), and whether this run still
     * needs that broker; every {@link #ASK_EXCUSED} while only excused brokers owe.
     */
    private void ask(long now, Map<Integer, Long> owed) {
        boolean owing = false;
        boolean excusedOwing = false;
        for (Map.Entry<Integer, Long> e : owed.entrySet()) {
            if (now - e.getValue() >= ASK_AFTER.toNanos()) {
                owing |= !excused.contains(e.getKey());
                excusedOwing |= excused.contains(e.getKey());
            }
        }
        Duration every = owing ? QUESTION : ASK_EXCUSED;
        if (question == null && (owing || excusedOwing) && (askedAt == 0 || now - askedAt >= every.toNanos())) {
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
