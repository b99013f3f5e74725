package io.sluice.merge.read;

import io.sluice.merge.merging.MergeClock;
import io.sluice.core.ClusterConnection;
import io.sluice.core.commit.BrokerWatch;
import io.sluice.core.commit.LeaderWatch;
import io.sluice.merge.MergeInput;
import io.sluice.merge.merging.Arrival;
import io.sluice.merge.merging.InputBuffer;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.order.EventTimeException;
import io.sluice.merge.write.MergeCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one input cluster for every output partition this instance merges: the input topic's partition p goes to
 * partition p's {@link InputBuffer}, with each record's event time parsed here (off the merge's thread). A partition
 * whose buffer is above its share of the budget is paused, and resumed below half of it; that is the alignment: an
 * input running ahead fills its share and waits for the merge, which waits for the slower inputs.
 *
 * <p>Reads read_committed, from the positions the committed state names, with no consumer group: which partitions it
 * reads is decided by the owners group in the target. A position that retention has deleted stops the merge with the
 * range lost, never a silent skip.
 *
 * <p>Threading: its own thread runs the consumer; {@link #add} and {@link #remove} from any thread are queued as
 * commands that thread runs between polls.
 */
public final class InputReader implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger("io.sluice.merge");
    private static final Duration POLL = Duration.ofMillis(100);
    /** How often a partition at its end is confirmed by a round trip (see {@link InputBuffer#confirmAtEnd}). */
    private static final long CONFIRM_EVERY_MILLIS = 500;
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(2);


    private final MergeInput input;
    private final EventTime eventTime;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final LongSupplier shareBytes;
    private final int index;
    private final MergeCounts counts;
    private final InputReach reach;
    /** Its partitions without a leader while the cluster answers: left out of the ends confirmed, and said. */
    private final LeaderWatch leaders;
    private final EndConfirmations ends;
    /** The input topic's partition count, which must stay the one the merge started with. */
    private final PartitionCountWatch partitionCount;
    /** Its brokers that stopped answering it while others answer: their partitions are not read, and said. */
    private final BrokerWatch brokers;
    /** What {@link #brokers} asks for at a look; made once, not per turn of the loop. */
    private final Supplier<Set<TopicPartition>> fetchingNow = this::fetchingPartitions;
    private final Queue<Runnable> commands = new ConcurrentLinkedQueue<>();
    private final Map<TopicPartition, Reading> readings = new HashMap<>();
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private volatile boolean running = true;
    private long confirmedAt = MergeClock.NEVER;

    private boolean newlyAtEnd;

    private static final class Reading {
        final InputBuffer buffer;
        boolean atEndSaid;
        boolean paused;
        /** The reader's position the buffer was last told of (-1: none). */
        long offeredUpTo = -1;

        Reading(InputBuffer buffer) {
            this.buffer = buffer;
        }
    }

    /**
     * {@code shareBytes}: how much one input partition may hold before it is paused; {@code smallestShare}: that
     * share when this instance reads every partition, which bounds the fetches (a fetch lands whole, paused or not);
     * {@code index}: the input's place in the configuration, under which {@code counts} keeps its pauses;
     * {@code maxWait}: how long the merge waits for an input it cannot hear from.
     */
    public InputReader(MergeInput input, EventTime eventTime, LongSupplier shareBytes, long smallestShare, int index,
            MergeCounts counts, Duration maxWait, int partitions) {
        this.input = input;
        this.reach = new InputReach(input, maxWait);
        this.eventTime = eventTime;
        this.shareBytes = shareBytes;
        this.index = index;
        this.counts = counts;
        Map<String, Object> props = new HashMap<>(input.clientProperties());
        props.putAll(ClusterConnection.of(input.clientProperties()));
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        props.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "sluice-merge-" + input.name());
        int fetch = (int) Math.max(64 << 10, Math.min(1 << 20, smallestShare / 2));
        props.putIfAbsent(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, fetch);
        props.putIfAbsent(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Math.max(fetch, 16 * fetch));
        this.consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        this.brokers = new BrokerWatch(consumer, InputReach.grace(maxWait), BrokerWatch.readsFromFollowers(props),
                new BrokerWatch.Words() {
            @Override
            public void silent(Node broker, Set<TopicPartition> partitions, long seconds) {
                LOG.warn("input '{}': broker {} ({}:{}), read for partition{} {}, has not answered for {} s while "
                        + "the input's other brokers do: a network fault between this merge and that broker, or the "
                        + "broker hangs. The input's other partitions go on; the merge goes on without {} once "
                        + "not heard of for max-wait ({}): what {} later below the merged position is late",
                        input.name(), broker.id(), broker.host(), broker.port(), partitions.size() == 1 ? "" : "s",
                        partitionList(partitions), seconds, partitions.size() == 1 ? "it" : "them",
                        InputReach.describe(maxWait), partitions.size() == 1 ? "it sends" : "they send");
            }

            @Override
            public void answersAgain(Node broker, long seconds) {
                LOG.info("input '{}': broker {} answers again, after {} s; reading its partitions goes on",
                        input.name(), broker.id(), seconds);
            }

            @Override
            public void noLongerRead(Node broker, long seconds) {
                LOG.info("input '{}': nothing is read from broker {} here any more (its partitions were paused or "
                        + "moved), after {} s without an answer from it: its silence is no longer watched",
                        input.name(), broker.id(), seconds);
            }
        });
        Map<String, Object> admin = ClusterConnection.of(input.clientProperties());
        admin.put(CommonClientConfigs.CLIENT_ID_CONFIG, props.get(ConsumerConfig.CLIENT_ID_CONFIG) + "-ends");
        // a request a broker holds unanswered (the metadata the admin client asks of one broker, which may be the one
        // cut off) is given up after this and asked of another: the ends are confirmed within seconds again
        admin.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, (int) (2 * CONFIRM_TIMEOUT.toMillis()));
        try {
            this.ends = new EndConfirmations(Admin.create(admin), CONFIRM_TIMEOUT);
        } catch (RuntimeException e) {
            consumer.close(CloseOptions.timeout(Duration.ZERO));
            throw e;
        }
        this.partitionCount = new PartitionCountWatch(input.name(), input.topic(), partitions, consumer::partitionsFor,
                System.nanoTime());
        this.leaders = new LeaderWatch(consumer, InputReach.grace(maxWait), new LeaderWatch.Words() {
            @Override
            public void noLeader(TopicPartition tp, long seconds) {
                LOG.warn("input '{}' partition {} has no leader in its cluster ({}) for {} s: the brokers that hold it "
                        + "are down, or it lost every in-sync replica. The input's other partitions go on; the merge "
                        + "goes on without this one once it has not been heard of for max-wait ({}): what it sends "
                        + "later below the merged position is late", input.name(), tp.partition(),
                        input.clientProperties().get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG), seconds,
                        InputReach.describe(maxWait));
            }

            @Override
            public void leaderAgain(TopicPartition tp, long seconds) {
                LOG.info("input '{}' partition {} has a leader again, after {} s; reading it goes on", input.name(),
                        tp.partition(), seconds);
            }
        });
    }

    /** Starts reading the input's partition {@code partition} at {@code position} into {@code buffer}. */
    public void add(int partition, long position, InputBuffer buffer) {
        commands.add(() -> {
            TopicPartition tp = new TopicPartition(input.topic(), partition);
            readings.put(tp, new Reading(buffer));
            ends.forget(tp);
            consumer.assign(readings.keySet());
            consumer.seek(tp, position);
        });
        consumer.wakeup();
    }

    /** Stops reading the input's partition {@code partition}. */
    public void remove(int partition) {
        commands.add(() -> {
            TopicPartition tp = new TopicPartition(input.topic(), partition);
            readings.remove(tp);
            ends.forget(tp);
            consumer.assign(readings.keySet());
        });
        consumer.wakeup();
    }

    /** Completes exceptionally, in words, when the reader cannot go on (a deleted range, a refused connection). */
    public CompletableFuture<Void> failure() {
        return failure;
    }

    public void stop() {
        running = false;
        reach.closing();
        leaders.closing();
        brokers.closing();
        consumer.wakeup();
    }

    /**
     * How long the input's cluster has not answered while this reader had partitions to fetch, once that is 15 s or
     * the merge's max-wait, whichever is shorter (said once in the log, and again when it answers); empty otherwise.
     * Any thread.
     */
    public Optional<Duration> unansweredFor() {
        return reach.unansweredFor();
    }

    /**
     * The input's partitions this reader reads that have had no leader in their cluster for 15 s or the merge's
     * max-wait, whichever is shorter (said once in the log, and again when they have one), with how long; any thread.
     */
    public Map<Integer, Duration> partitionsWithoutLeader() {
        Map<Integer, Duration> byPartition = new java.util.TreeMap<>();
        leaders.withoutLeader().forEach((tp, d) -> byPartition.put(tp.partition(), d));
        return byPartition;
    }

    /**
     * The input's brokers that have not answered this reader for 15 s or the merge's max-wait, whichever is shorter,
     * while its other brokers do, by id, with how long (said once in the log, and again when they answer); any thread.
     */
    public Map<Integer, Duration> brokersUnanswered() {
        return brokers.silentBrokers();
    }

    @Override
    public void run() {
        try {
            while (running) {
                for (Runnable command; (command = commands.poll()) != null; ) {
                    command.run();
                }
                if (readings.isEmpty()) {
                    reach.look(System.nanoTime(), consumer.metrics(), false);
                    Thread.sleep(POLL.toMillis());
                    continue;
                }
                balance();
                ConsumerRecords<byte[], byte[]> records;
                try {
                    records = consumer.poll(POLL);
                } catch (WakeupException e) {
                    continue;
                }
                deliver(records);
                long now = System.nanoTime();
                confirmEnds(leaders.look(now, readings.keySet()));
                brokers.look(now, fetchingNow);
                reach.look(now, consumer.metrics(), fetching());
                Optional<String> countChanged = partitionCount.look(now);
                if (countChanged.isPresent()) {
                    failure.completeExceptionally(new IllegalStateException(countChanged.get()));
                    return;
                }
            }
        } catch (OffsetOutOfRangeException e) {
            String lost;
            try {
                lost = lostRange(e);
            } catch (RuntimeException asking) {
                // the cluster did not say where the partition begins now: the failure is still the records lost, said
                // without the range, never a reader that ends with nobody told (its thread died, the merge went on
                // without the input after max-wait: a review)
                lost = "input '" + input.name() + "' lost records before they were merged: " + e.partitions()
                        + " no longer hold the merge's position (" + e.offsetOutOfRangePartitions() + "), deleted by "
                        + "retention or a log cut; the range could not be read (" + asking.getMessage() + ")";
            }
            failure.completeExceptionally(new IllegalStateException(lost));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            failure.completeExceptionally(new IllegalStateException("input '" + input.name() + "' (topic '"
                    + input.topic() + "'): " + e.getMessage(), e));
        } finally {
            reach.closing();
            leaders.closing();
            brokers.closing();
            // no group, nothing to commit: waiting would only wait out a fetch the broker holds at the input's end
            try {
                consumer.close(CloseOptions.timeout(Duration.ZERO));
            } finally {
                ends.close();
            }
        }
    }

    private void balance() {
        long share = shareBytes.getAsLong();
        List<TopicPartition> pause = new ArrayList<>();
        List<TopicPartition> resume = new ArrayList<>();
        readings.forEach((tp, r) -> {
            long held = r.buffer.bytes();
            if (!r.paused && held >= share) {
                r.paused = true;
                pause.add(tp);
                counts.paused(index);
            } else if (r.paused && held < share / 2) {
                r.paused = false;
                resume.add(tp);
            }
        });
        consumer.pause(pause);
        consumer.resume(resume);
    }

    /** The partitions assigned and not paused: those the reader asks its cluster records for. */
    private Set<TopicPartition> fetchingPartitions() {
        Set<TopicPartition> fetching = new HashSet<>();
        readings.forEach((tp, r) -> {
            if (!r.paused) {
                fetching.add(tp);
            }
        });
        return fetching;
    }

    private static String partitionList(Set<TopicPartition> partitions) {
        StringBuilder s = new StringBuilder();
        for (TopicPartition tp : partitions) {
            s.append(s.length() == 0 ? "" : ", ").append(tp.partition());
        }
        return s.toString();
    }

    /** Whether a partition is assigned and not paused: the reader then asks its cluster for records. */
    private boolean fetching() {
        for (Reading r : readings.values()) {
            if (!r.paused) {
                return true;
            }
        }
        return false;
    }

    private void deliver(ConsumerRecords<byte[], byte[]> records) {
        readings.forEach((tp, r) -> {
            List<ConsumerRecord<byte[], byte[]>> got = records.records(tp);
            OptionalLong lag = consumer.currentLag(tp);
            boolean atEnd = lag.isPresent() && lag.getAsLong() == 0;
            // the position counts too: a poll that passed only transaction markers or aborted records moves it,
            // and the merge's state must pass them as well, or its committed position stays short of the end (on
            // the last marker, before an aborted tail) and its lag never reaches 0
            long position = positionNow(tp);
            if (got.isEmpty() && atEnd == r.atEndSaid && position <= r.offeredUpTo) {
                return; // nothing new to tell
            }
            List<Arrival> arrivals = new ArrayList<>(got.size());
            for (ConsumerRecord<byte[], byte[]> record : got) {
                arrivals.add(arrival(record));
            }
            counts.held(index, r.buffer.offer(arrivals, atEnd, position));
            r.offeredUpTo = Math.max(r.offeredUpTo, position);
            newlyAtEnd |= atEnd && !r.atEndSaid;
            r.atEndSaid = atEnd;
        });
    }

    /**
     * The position of {@code tp} if the consumer knows it now, else -1: never a wait (a position being validated after
     * a leader change would make {@code position} ask the cluster, up to its timeout) and never a wakeup thrown (the
     * loop runs the command that woke it next).
     */
    private long positionNow(TopicPartition tp) {
        try {
            return consumer.position(tp, Duration.ZERO);
        } catch (org.apache.kafka.common.errors.TimeoutException | WakeupException e) {
            return -1;
        }
    }

    /**
     * The consumer's lag comes from its last fetch and says nothing once the cluster stops answering: the end of the
     * partitions at their end is asked for again (read_committed: the last stable offset), and only an answer at or
     * below the position confirms it, as of when it was asked. No answer, no confirmation: the merge soon treats the
     * partition as silent. The answers are read as they come, never waited for (see {@link EndConfirmations}).
     */
    private void confirmEnds(Set<TopicPartition> leaderless) {
        ends.answered((tp, end, askedAt) -> {
            Reading r = readings.get(tp);
            // every record below the position was offered (deliver ran first), so the buffer may say "at end"
            if (r != null && end <= positionNow(tp)) {
                r.buffer.confirmAtEnd(askedAt);
            }
        });
        long now = MergeClock.now();
        if (!newlyAtEnd && now - confirmedAt < CONFIRM_EVERY_MILLIS) {
            return;
        }
        newlyAtEnd = false;
        confirmedAt = now;
        List<TopicPartition> atEnd = new ArrayList<>();
        readings.forEach((tp, r) -> {
            // a partition without a leader cannot answer: its question would only wait out the timeout
            if (r.atEndSaid && !leaderless.contains(tp)) {
                atEnd.add(tp);
            }
        });
        ends.ask(atEnd, now);
    }

    private Arrival arrival(ConsumerRecord<byte[], byte[]> record) {
        try {
            return Arrival.timed(record, eventTime.of(record));
        } catch (EventTimeException e) {
            return Arrival.untimed(record, e.getMessage());
        }
    }

    private String lostRange(OffsetOutOfRangeException e) {
        StringBuilder s = new StringBuilder("input '" + input.name() + "' lost records before they were merged: ");
        Set<TopicPartition> partitions = e.offsetOutOfRangePartitions().keySet();
        Map<TopicPartition, Long> earliest = consumer.beginningOffsets(partitions);
        Map<TopicPartition, Long> latest = consumer.endOffsets(partitions);
        e.offsetOutOfRangePartitions().forEach((tp, at) -> {
            long first = earliest.getOrDefault(tp, -1L);
            long end = latest.getOrDefault(tp, -1L);
            if (end >= 0 && at > end) {
                // past the log's end: "offsets 68 to -1 were deleted (retention?)" told a new user nothing
                s.append(tp).append(": the merge's position, offset ").append(at).append(", is past the partition's")
                        .append(" end (").append(end).append("): the topic was deleted and created again, or its log")
                        .append(" was cut; ");
            } else {
                s.append(tp).append(" offsets ").append(at).append(" to ").append(first - 1).append(" were deleted")
                        .append(" (retention, or kafka-delete-records); ");
            }
        });
        // a new name alone merges every input record again into the same output, beside the ones there
        return s.append("they are not in the output. To go on without them, merge into a new output topic under a "
                + "new merge name (a new name into this output would write its records a second time); nothing was "
                + "skipped silently.").toString();
    }
}
