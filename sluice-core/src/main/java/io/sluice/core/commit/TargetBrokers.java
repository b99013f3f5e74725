package io.sluice.core.commit;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;

/**
 * Which broker of the cluster a run writes to holds the run's writes up while the cluster's other brokers answer: a
 * network fault between this process and that one broker, or the broker hangs, while the cluster still sees it.
 *
 * <p>It starts from what waits, as the run itself knows it ({@link TargetWait}: a partition's records flushed and not
 * yet acknowledged, or its commit), not from the clients' counts alone: a count of requests and responses cannot tell
 * a healthy broker that was asked nothing from one that holds requests it cannot be asked again (three skeptical
 * reviews found false alarms and missed silences in every rule built on counts alone). Once a wait has lasted a third
 * of the grace ({@link #askAfter}: 5 s of the usual 15), the cluster is asked ({@link Probe}, as often while waits
 * last, each question given as long to answer, and asked again at the next looks while held) who leads the partition
 * and who coordinates its transaction and the progress group; an answer is also proof that the cluster answers. A wait
 * that has lasted the grace, with an answer since it began, is laid on the brokers that serve it, that no producer of
 * the run has heard from for the grace within it (since it began, or since the
 * look that saw their last answer when that came after it began), and that hold a request (one written after their
 * last response; each producer's {@code producer-node-metrics}); a wait for records with no such broker is laid on the
 * partition's leader if it is silent (its requests went out before its last answer was seen), and a wait for a commit
 * with no such broker on the silent brokers that serve it, owe some producer an answer (its counts of requests and
 * responses differ) and were written a request seen within the wait (a look that sees a request and an answer cannot
 * tell which came first). A wait
 * laid on no broker is said by no one here, and the cluster's answers are then no proof: the cluster-wide watch keeps
 * its say. Each broker blamed is said once, with what waits for it, and once more when it answers again or nothing
 * waits for it any more. Counts are read at looks: a change seen at a look happened after the look before, which is
 * the time taken for it. A gap between looks of {@link Silence#STALLED} or more was this process not running (as
 * {@link Silence}): waits count from the look after it.
 *
 * <p>Threading: one thread at a time (its owner's lock); the probe's answers are read at the next look.
 */
public final class TargetBrokers {

    /** The least time before a question, and given to one: a cluster's metadata answer under load. */
    private static final Duration SHORTEST_QUESTION = Duration.ofSeconds(1);

    /** The most questions of one round out at once: each held one ties up one request to a broker for its timeout. */
    static final int MOST_ASKED = 3;

    /** Asks the cluster which brokers it has and which of them serve this run's writes. */
    public interface Probe {
        /** The cluster's answer within {@code timeout}, or a failed future. */
        CompletableFuture<Answer> ask(Duration timeout);
    }

    /**
     * The cluster's answer: its live brokers (id to host:port); the leaders of the partitions written; the coordinator
     * of the progress group, if any; the coordinators of the partitions' transactions, if any. What it could not tell
     * (a topic it would not describe) is missing, and then no broker is blamed for it.
     */
    public record Answer(Map<Integer, String> brokers, Map<TopicPartition, Integer> leaders,
            Optional<Coordinator> progressGroup, Map<TopicPartition, Integer> transactions) {
        public Answer {
            brokers = Map.copyOf(brokers);
            leaders = Map.copyOf(leaders);
            transactions = Map.copyOf(transactions);
        }
    }

    /** A group and the broker that coordinates it. */
    public record Coordinator(String group, int broker) {
    }

    /** What waits for one broker: the partitions whose records it leads, whose commits it holds, and since when. */
    private static final class Blame {
        final Set<TopicPartition> records = new TreeSet<>(TargetBrokers::compare);
        final Set<TopicPartition> commits = new TreeSet<>(TargetBrokers::compare);
        /** What it does for the records and for the commits that wait, each with the partitions it does it for. */
        final Map<String, Set<TopicPartition>> recordRoles = new LinkedHashMap<>();
        final Map<String, Set<TopicPartition>> commitRoles = new LinkedHashMap<>();
        long since = Long.MAX_VALUE;
    }

    private final Duration grace;
    /** How long a wait lasts before the cluster is asked, how long a question may take, the least time between two. */
    private final Duration question;
    private final Probe probe;
    private final Supplier<? extends Map<TopicPartition, TargetWait>> waits;
    /** The clock of the looks' times and of the waits' starts (nanos), read once the counts were read. */
    private final LongSupplier clock;
    /** Each producer's last per-broker counts, by the metric (a producer keeps each; its views are new each call). */
    private final Map<Metric, Double> counts = new IdentityHashMap<>();
    /** When any producer last heard from each broker, and last wrote a request to it: the look before it was seen. */
    private final Map<Integer, Long> heardAt = new HashMap<>();
    private final Map<Integer, Long> askedOfAt = new HashMap<>();
    /** When the counts that showed each broker's last answer, and its last request, were read: each came no later. */
    private final Map<Integer, Long> heardSeenAt = new HashMap<>();
    private final Map<Integer, Long> askedSeenAt = new HashMap<>();
    /**
     * The brokers that some producer had written more requests than they had answered, at the last look: a request
     * outstanding (or one lost with a dropped connection, which a count cannot tell apart).
     */
    private final Set<Integer> owing = new HashSet<>();
    /** Brokers said to hold the run up, and since when. */
    private final Map<Integer, Long> said = new TreeMap<>();
    private long lookedAt;
    /** The look after this process last did not run: waits count from here at the earliest. */
    private long resumedAt = Long.MIN_VALUE;
    /**
     * The questions of this round not yet read: the first, and the same question asked again at each look that found
     * none answered (up to {@link #MOST_ASKED}). The admin client may send both copies of a question to the broker that
     * holds requests, and the calls queued behind it time out with it; asked again a look later, the question goes to
     * a broker that holds none (seen in CI: two held questions in a row, and the whole target was called silent while
     * one broker held the run up).
     */
    private final List<CompletableFuture<Answer>> asking = new ArrayList<>();
    /** When this round's first question was asked, and its last. */
    private long askedAt;
    private long askedAgainAt;
    /** The last answer, and the look that read it. */
    private Answer answer;
    private long answeredAt;

    /**
     * @param grace how long a wait lasts before the brokers it waits for are said
     * @param waits the waits of the run's writers now, by the partition written (target partitions)
     */
    public TargetBrokers(Duration grace, Probe probe, Supplier<? extends Map<TopicPartition, TargetWait>> waits) {
        this(grace, probe, waits, System::nanoTime);
    }

    TargetBrokers(Duration grace, Probe probe, Supplier<? extends Map<TopicPartition, TargetWait>> waits,
            LongSupplier clock) {
        this.grace = grace;
        this.question = askAfter(grace);
        this.probe = probe;
        this.waits = waits;
        this.clock = clock;
    }

    /**
     * One look at {@code now} ({@link System#nanoTime()}'s nanos, the clock of the waits' starts), with the producers'
     * metrics; returns whether the cluster answered a question
     * since the last look while some live broker of it holds nothing up: proof that the cluster answers, beside the
     * producers' own responses.
     */
    public boolean look(long now, Collection<? extends Map<MetricName, ? extends Metric>> producers) {
        boolean stalled = lookedAt != 0 && now - lookedAt >= Silence.STALLED.toNanos();
        count(lookedAt, now, producers);
        lookedAt = now;
        if (stalled) {
            // this process did not run: no broker is to blame for that time, so waits count from now at the earliest
            resumedAt = now;
            said.replaceAll((broker, since) -> now);
            return false;
        }
        Map<TopicPartition, TargetWait> current = waits.get();
        boolean answered = read(now);
        Set<TopicPartition> unexplained = new TreeSet<>(TargetBrokers::compare);
        Map<Integer, Blame> blamed = blame(now, current, unexplained);
        judge(now, blamed);
        ask(now, current);
        // the cluster answered, and some live broker holds nothing up, and every long wait is laid on a broker: the
        // words name what holds the run up; otherwise the cluster-wide watch keeps its own say
        return answered && unexplained.isEmpty() && !blamed.keySet().containsAll(answer.brokers().keySet());
    }

    /** The brokers said to hold the run up now, with how long as of {@code now}. */
    public Map<Integer, Duration> silent(long now) {
        Map<Integer, Duration> silent = new TreeMap<>();
        said.forEach((broker, since) -> silent.put(broker, Duration.ofNanos(now - since)));
        return silent;
    }

    /**
     * Notes, per broker, whether some producer heard from it or wrote it a request since the last look, and whether
     * some producer is owed an answer by it now.
     */
    private void count(long since, long now, Collection<? extends Map<MetricName, ? extends Metric>> producers) {
        Set<Metric> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Integer> heard = new HashSet<>();
        Set<Integer> asked = new HashSet<>();
        owing.clear();
        for (Map<MetricName, ? extends Metric> metrics : producers) {
            Map<Integer, double[]> requestsAndResponses = new HashMap<>();
            metrics.forEach((name, metric) -> {
                int broker = broker(name);
                if (broker < 0) {
                    return;
                }
                seen.add(metric);
                double value = ClientMetrics.value(metric);
                boolean response = name.name().equals("response-total");
                requestsAndResponses.computeIfAbsent(broker, b -> new double[2])[response ? 1 : 0] = value;
                Double before = counts.put(metric, value);
                // a producer first seen now was made since the last look (a new claim, a replaced producer): what it
                // counts happened since then too
                if (before == null ? value > 0 : before != value) {
                    (response ? heard : asked).add(broker);
                }
            });
            requestsAndResponses.forEach((broker, counted) -> {
                if (counted[0] > counted[1]) {
                    owing.add(broker);
                }
            });
        }
        counts.keySet().retainAll(seen);
        // a change came after the last look, no earlier: an answer seen at this look may have come before a wait that
        // began since the last one, so it does not prove the broker answered during that wait. And it came no later
        // than the counts were read, which is after now: a commit that began between now and the reading, its request
        // seen by it, was taken for one begun after its request and laid on no broker (seen in CI: the black-holed
        // coordinator of a commit was never named)
        long read = Math.max(now, clock.getAsLong());
        heard.forEach(broker -> {
            heardAt.put(broker, since);
            heardSeenAt.put(broker, read);
        });
        asked.forEach(broker -> {
            askedOfAt.put(broker, since);
            askedSeenAt.put(broker, read);
        });
    }

    /**
     * Reads an answer to this round's questions once one came (the latest asked of those answered), and drops the
     * others; returns whether one came (a failed question is no answer).
     */
    private boolean read(long now) {
        Answer latest = null;
        for (var it = asking.iterator(); it.hasNext();) {
            CompletableFuture<Answer> question = it.next();
            if (!question.isDone()) {
                continue;
            }
            it.remove();
            if (question.isCompletedExceptionally()) {
                question.exceptionally(e -> {
                    LOG.debug("the target did not answer the question who serves the writes: {}", e.toString());
                    return null;
                });
            } else {
                latest = question.join();
            }
        }
        if (latest == null) {
            return false;
        }
        asking.clear(); // answered: the questions still out are of no use (the admin client times them out)
        answer = latest;
        answeredAt = now;
        return true;
    }

    /**
     * Lays each wait of the grace or longer, begun before the last answer, on the live brokers that serve it, have not
     * answered for the grace within it and hold a request (a wait for records: else on its silent leader); the waits
     * laid on none go to {@code unexplained}.
     */
    private Map<Integer, Blame> blame(long now, Map<TopicPartition, TargetWait> current,
            Set<TopicPartition> unexplained) {
        Map<Integer, Blame> blamed = new TreeMap<>();
        if (answer == null) {
            return blamed;
        }
        current.forEach((partition, waiting) -> {
            TargetWait wait = new TargetWait(waiting.kind(), Math.max(waiting.since(), resumedAt));
            if (now - wait.since() < grace.toNanos() || answeredAt <= wait.since()) {
                return;
            }
            Integer leader = answer.leaders().get(partition);
            Integer transaction = answer.transactions().get(partition);
            Optional<Coordinator> group = answer.progressGroup();
            List<Integer> serving = new ArrayList<>();
            if (leader != null) {
                serving.add(leader);
            }
            if (transaction != null) {
                serving.add(transaction);
            }
            if (wait.kind() == TargetWait.Kind.COMMIT) {
                group.ifPresent(c -> serving.add(c.broker()));
            }
            List<Integer> suspects = serving.stream().distinct()
                    .filter(b -> silentFor(b, wait.since(), now) && holds(b)).toList();
            if (suspects.isEmpty() && wait.kind() == TargetWait.Kind.RECORDS && leader != null
                    && silentFor(leader, wait.since(), now)) {
                // the partition's own records are unacknowledged: its leader holds them, though its requests went
                // out before its last answer was seen (five in flight, then silence)
                suspects = List.of(leader);
            }
            if (suspects.isEmpty() && wait.kind() == TargetWait.Kind.COMMIT) {
                // a commit's request goes out as the answer before it comes in (the records' acknowledgement, then
                // the commit to the transaction coordinator on the same broker): a look sees both at once and cannot
                // tell the order, and a healthy broker's request and answer are seen at one look as often. A silent
                // serving broker that owes an answer to a request seen within the wait holds it (seen in CI: the
                // black-holed broker held a commit, was never named, and the wait was unexplained)
                suspects = serving.stream().distinct()
                        .filter(b -> silentFor(b, wait.since(), now) && mayHold(b, waiting.since())).toList();
            }
            if (suspects.isEmpty()) {
                unexplained.add(partition); // nothing known holds it: no broker is named, and no proof is claimed
                return;
            }
            for (int broker : suspects) {
                Blame blame = blame(blamed, broker, silentFrom(broker, wait.since()));
                boolean records = wait.kind() == TargetWait.Kind.RECORDS;
                (records ? blame.records : blame.commits).add(partition);
                Map<String, Set<TopicPartition>> roles = records ? blame.recordRoles : blame.commitRoles;
                if (leader != null && leader == broker) {
                    role(roles, "it leads", partition);
                }
                if (transaction != null && transaction == broker) {
                    role(roles, "it coordinates the transactions of", partition);
                }
                if (!records && group.isPresent() && group.get().broker() == broker) {
                    role(roles, "it coordinates the progress group '" + group.get().group() + "'", null);
                }
            }
        });
        blamed.keySet().retainAll(answer.brokers().keySet());
        return blamed;
    }

    /** Adds {@code partition} (or none: a role for all) to what the broker does. */
    private static void role(Map<String, Set<TopicPartition>> roles, String role, TopicPartition partition) {
        Set<TopicPartition> partitions = roles.computeIfAbsent(role, r -> new TreeSet<>(TargetBrokers::compare));
        if (partition != null) {
            partitions.add(partition);
        }
    }

    private static Blame blame(Map<Integer, Blame> blamed, int broker, long since) {
        Blame blame = blamed.computeIfAbsent(broker, b -> new Blame());
        blame.since = Math.min(blame.since, since);
        return blame;
    }

    /** Whether no producer heard from {@code broker} since {@code since}. */
    private boolean silentSince(int broker, long since) {
        return heardAt.getOrDefault(broker, Long.MIN_VALUE) <= since;
    }

    /**
     * When {@code broker}'s silence began, as a wait that began at {@code since} tells it: the wait's start when no
     * producer heard from it since, else the look that saw its last answer. The second is for a wait that began before
     * the broker fell silent (a checkpoint that waited for its copies while earlier ones were still acknowledged, as a
     * run under load sees): counted from its start, the broker was never silent "since the wait began", and it was
     * never named (seen in CI: the whole cluster was called silent instead).
     */
    private long silentFrom(int broker, long since) {
        return silentSince(broker, since) ? since : heardSeenAt.get(broker);
    }

    /** Whether {@code broker} has been silent for the grace, within a wait that began at {@code since}. */
    private boolean silentFor(int broker, long since, long now) {
        return now - silentFrom(broker, since) >= grace.toNanos();
    }

    /** Whether {@code broker} holds requests: one was written to it after its last response. */
    private boolean holds(int broker) {
        return askedOfAt.getOrDefault(broker, Long.MIN_VALUE) > heardAt.getOrDefault(broker, Long.MIN_VALUE);
    }

    /**
     * Whether {@code broker} may hold a request of a wait that began at {@code since} (its true start, before a stall
     * of this process): some producer is owed an answer by it, and the look that saw its last request came after the
     * wait began, so that request may belong to the wait.
     */
    private boolean mayHold(int broker, long since) {
        return owing.contains(broker) && askedSeenAt.getOrDefault(broker, Long.MIN_VALUE) > since;
    }

    private void judge(long now, Map<Integer, Blame> blamed) {
        for (var it = said.entrySet().iterator(); it.hasNext();) {
            var e = it.next();
            int broker = e.getKey();
            boolean heard = heardAt.getOrDefault(broker, Long.MIN_VALUE) > e.getValue();
            if (blamed.containsKey(broker) && !heard) {
                continue;
            }
            it.remove();
            long seconds = Duration.ofNanos(now - e.getValue()).toSeconds();
            if (heard) {
                LOG.info("target broker {} answers again, after {} s; what waited for it goes on", broker, seconds);
            } else {
                LOG.info("target broker {} is no longer waited for here, after {} s without an answer (the writes that"
                        + " waited for it were given up, or its partitions moved)", broker, seconds);
            }
        }
        // "while the cluster's other brokers do" only when some live broker is not blamed: a one-broker cluster coming
        // back was told so of its only broker (a new user's run)
        boolean othersAnswer = answer != null && !blamed.keySet().containsAll(answer.brokers().keySet());
        blamed.forEach((broker, blame) -> {
            if (said.containsKey(broker)) {
                return;
            }
            // counted from when the first wait it holds up began (it has not been heard since): not the time it was
            // idle before
            long since = blame.since;
            said.put(broker, since);
            LOG.warn("target broker {} ({}) has not answered for {} s{}; {}. A network fault between this process and"
                    + " that broker, the broker hangs, or it waits for its followers (acks=all): what waits for it is"
                    + " retried, nothing is lost, and it goes on when the broker answers", broker,
                    answer.brokers().get(broker), Duration.ofNanos(now - since).toSeconds(),
                    othersAnswer ? " while the cluster's other brokers do" : "", what(blame));
        });
    }

    /** "the records of [t-0] wait for it (it leads [t-0]); the commits of [t-1] wait for it (it coordinates ...)". */
    private static String what(Blame blame) {
        List<String> parts = new ArrayList<>();
        if (!blame.records.isEmpty()) {
            parts.add("the records of " + blame.records + " wait for it (" + roles(blame.recordRoles) + ")");
        }
        if (!blame.commits.isEmpty()) {
            parts.add("the commits of " + blame.commits + " wait for it (" + roles(blame.commitRoles) + ")");
        }
        return String.join("; ", parts);
    }

    /** "it leads [t-0, t-1], and it coordinates the progress group 'g'". */
    private static String roles(Map<String, Set<TopicPartition>> roles) {
        List<String> each = new ArrayList<>();
        roles.forEach((role, partitions) -> each.add(partitions.isEmpty() ? role : role + " " + partitions));
        return String.join(", and ", each);
    }

    /**
     * How long a wait lasts before the cluster is asked who serves it, with a grace of {@code grace}: a third of it, at
     * least {@link #SHORTEST_QUESTION}. The answer must come within the grace: else the cluster-wide watch calls the
     * whole cluster silent while one broker holds the run up, and a stop gives up a drain the cluster would have taken
     * (a grace of 3 s, asked after 5 s as before, did that). A question is given as long, so asked and answered the
     * cluster has spoken within two thirds of the grace, and asked as often, so it speaks again within each third.
     */
    static Duration askAfter(Duration grace) {
        Duration third = grace.dividedBy(3);
        return third.compareTo(SHORTEST_QUESTION) < 0 ? SHORTEST_QUESTION : third;
    }

    /**
     * Asks the cluster, every {@link #askAfter}, while a wait has lasted that long; and asks again at a look a second or
     * more after the last question while a question of the round is still out, none answered (one held; those that
     * failed meanwhile are dropped at the read).
     */
    private void ask(long now, Map<TopicPartition, TargetWait> current) {
        long after = question.toNanos();
        boolean waiting = current.values().stream().anyMatch(w -> now - Math.max(w.since(), resumedAt) >= after);
        if (!waiting) {
            return;
        }
        boolean held = !asking.isEmpty();
        if (held ? asking.size() < MOST_ASKED && now - askedAgainAt >= SHORTEST_QUESTION.toNanos()
                : askedAt == 0 || now - askedAt >= after) {
            if (!held) {
                askedAt = now;
            }
            askedAgainAt = now;
            try {
                asking.add(probe.ask(question));
            } catch (RuntimeException e) {
                asking.add(CompletableFuture.failedFuture(e)); // a question that could not be asked: no answer
            }
        }
    }

    private static int compare(TopicPartition a, TopicPartition b) {
        int byTopic = a.topic().compareTo(b.topic());
        return byTopic != 0 ? byTopic : Integer.compare(a.partition(), b.partition());
    }

    /** The broker a per-broker producer count is about, or -1 (another metric, a bootstrap connection). */
    private static int broker(MetricName name) {
        Integer node = name.name().equals("request-total") || name.name().equals("response-total")
                ? ClientMetrics.node(name, "producer-node-metrics") : null;
        return node == null || node < 0 ? -1 : node;
    }
}
