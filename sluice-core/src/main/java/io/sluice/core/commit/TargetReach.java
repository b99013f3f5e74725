package io.sluice.core.commit;

import static io.sluice.core.internal.EngineLog.LOG;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Whether the cluster a run writes to answers, as the counts of responses of its producers say: the target of a
 * mirror, the output of a merge. A producer hears from its cluster only while it has something to send, so a silence
 * counts only while records wait: one of them holds records not yet acknowledged (its buffer is not all free), or a
 * send waits for the cluster's metadata. While the cluster is down the producers retry for minutes
 * ({@code delivery.timeout.ms}) and the run's line read "0 rec/s" with nothing said: this says once in words when no
 * response came for the grace period ({@link #grace}: 15 s unless the producers' request timeout is shorter) while
 * records wait, and once when one comes again, where the clients log a warning for every retry (shown only with
 * {@code --verbose}). The source side has its own watch in the engine, from the consumer's count.
 *
 * <p>Threading: any thread, under this object's lock; the producers' metrics are live views whose values may be read
 * from any thread (as Kafka's JMX reporter reads them).
 */
public final class TargetReach {

    /** As the source's: long past a broker's usual answer, short beside the producers' retries. */
    public static final Duration GRACE = Duration.ofSeconds(15);

    /**
     * Room for the question to the cluster who serves the writes ({@link TargetBrokers#askAfter}: asked a second into a
     * wait, answered within the next), whose answer keeps one silent broker from being taken for a silent cluster.
     */
    private static final Duration SHORTEST_GRACE = Duration.ofSeconds(3);

    /**
     * The grace for writers with {@code clientProperties}: {@link #GRACE}, or their {@code request.timeout.ms} when
     * that is shorter, but at least 3 s. Whoever lowered the request timeout said that an answer later than that
     * is a failure (the producer gives up on the request and sends it again); a silence that long is then worth
     * saying, and a stop need not wait longer for it. Unset or unreadable (the producer refuses it first):
     * {@link #GRACE}.
     */
    public static Duration grace(Map<String, ?> clientProperties) {
        Object value = clientProperties.get(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG);
        if (value == null) {
            return GRACE;
        }
        long millis;
        try {
            millis = Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            return GRACE;
        }
        Duration timeout = Duration.ofMillis(Math.max(millis, SHORTEST_GRACE.toMillis()));
        return timeout.compareTo(GRACE) < 0 ? timeout : GRACE;
    }

    private final String where;
    private final Supplier<? extends Collection<? extends Map<MetricName, ? extends Metric>>> producers;
    private final BooleanSupplier sending;
    private final Silence silence;
    /** Which of its brokers owes an answer while the others answer; null when not watched. */
    private final TargetBrokers brokers;
    /**
     * Each producer's count of responses at the last look, by its metric (a producer hands out a new view of its
     * metrics at every call, but keeps each metric).
     */
    private final Map<Metric, Double> responses = new IdentityHashMap<>();

    /**
     * Watches the cluster that {@code clientProperties} connect to (named by their bootstrap servers), with their
     * {@link #grace} period; the parameters as {@link #TargetReach(String, Supplier, BooleanSupplier, Duration)}'s.
     */
    public static TargetReach of(Map<String, ?> clientProperties,
            Supplier<? extends Collection<? extends Map<MetricName, ? extends Metric>>> producers,
            BooleanSupplier sending) {
        return of(clientProperties, producers, sending, null);
    }

    /**
     * As {@link #of(Map, Supplier, BooleanSupplier)}, and each broker watched: one that holds the run's writes up while
     * the rest of the cluster answers is said by name, with what waits for it ({@link TargetBrokers}, built with
     * {@link #grace} of the same properties); the cluster's answer to its question is also proof that the cluster
     * answers. Null watches none.
     */
    public static TargetReach of(Map<String, ?> clientProperties,
            Supplier<? extends Collection<? extends Map<MetricName, ? extends Metric>>> producers,
            BooleanSupplier sending, TargetBrokers brokers) {
        return new TargetReach(String.valueOf(clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)),
                producers, sending, grace(clientProperties), brokers);
    }

    /**
     * @param where     the cluster as the user named it (its bootstrap servers)
     * @param producers the metrics of each producer writing to it now ({@code Producer#metrics()}, live views)
     * @param sending   whether a writer waits on the cluster now: in a send (a producer's first send to a topic, or
     *                  one after its metadata was dropped, waits for the cluster's metadata, {@code max.block.ms},
     *                  with nothing in its buffer yet), a flush or a commit
     */
    public TargetReach(String where, Supplier<? extends Collection<? extends Map<MetricName, ? extends Metric>>> producers,
            BooleanSupplier sending, Duration grace) {
        this(where, producers, sending, grace, null);
    }

    /** As {@link #TargetReach(String, Supplier, BooleanSupplier, Duration)}, with each broker watched (or null). */
    public TargetReach(String where, Supplier<? extends Collection<? extends Map<MetricName, ? extends Metric>>> producers,
            BooleanSupplier sending, Duration grace, TargetBrokers brokers) {
        this.where = where;
        this.producers = producers;
        this.sending = sending;
        this.silence = new Silence(grace);
        this.brokers = brokers;
    }

    /**
     * How long records have waited for the cluster with no response as of {@code now} (nanos), once that is the grace
     * period or longer; empty otherwise. Each call is a look: call it regularly (a run's progress line does).
     */
    public synchronized Optional<Duration> unreachableFor(long now) {
        observe(now);
        return silence.length(now);
    }

    /**
     * As {@link #unreachableFor}, in words for a sink that cannot finish ({@link io.sluice.core.sink.Sink#unableToFinish}):
     * "the target cluster (host:9092) has not answered for 40 s".
     */
    public synchronized Optional<String> silenceInWords(long now) {
        return unreachableFor(now).map(d -> "the target cluster (" + where + ") has not answered for " + d.toSeconds()
                + " s");
    }

    /**
     * The brokers of the cluster that owe this run an answer while the others answer, said once the grace has passed,
     * with how long as of {@code now} (nanos); empty when none, or when brokers are not watched. Reads the last look.
     */
    public synchronized Map<Integer, Duration> brokersUnanswered(long now) {
        return brokers == null ? Map.of() : brokers.silent(now);
    }

    private void observe(long now) {
        boolean answered = false;
        boolean waiting = sending.getAsBoolean();
        Collection<? extends Map<MetricName, ? extends Metric>> current = producers.get();
        Set<Metric> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map<MetricName, ? extends Metric> metrics : current) {
            Metric responseCount = metric(metrics, "response-total");
            if (responseCount == null) {
                answered = true; // a producer without the count: nothing to go by, so no alarm
                continue;
            }
            seen.add(responseCount);
            double count = ClientMetrics.value(responseCount);
            Double before = responses.put(responseCount, count);
            answered |= before != null && before != count;
            waiting |= ClientMetrics.value(metric(metrics, "buffer-available-bytes"))
                    < ClientMetrics.value(metric(metrics, "buffer-total-bytes"));
        }
        responses.keySet().retainAll(seen);
        if (brokers != null) {
            answered |= brokers.look(now, current); // the cluster answered a question: a broker holds it up, not all
        }
        switch (silence.look(now, answered, waiting)) {
            case BEGAN -> LOG.warn("no answer from the target cluster ({}) for {} s while records wait to be written;"
                    + " its producers retry until it answers (up to delivery.timeout.ms; --verbose shows the clients'"
                    + " retries)", where, silence.seconds());
            case ENDED -> LOG.info("the target cluster ({}) answers again, after {} s without an answer; writing goes"
                    + " on", where, silence.seconds());
            case NONE -> { }
        }
    }

    /** A producer-wide metric, or null when the producer has none. */
    private static Metric metric(Map<MetricName, ? extends Metric> metrics, String name) {
        for (Map.Entry<MetricName, ? extends Metric> e : metrics.entrySet()) {
            if (e.getKey().name().equals(name) && e.getKey().group().equals("producer-metrics")) {
                return e.getValue();
            }
        }
        return null;
    }
}
