package io.sluice.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A library's warning shows once a minute with the count of those not shown; Sluice's own lines and other kinds of
 * warning are not held back. In a logging context of its own, so the command's console is not touched.
 */
class RepeatedWarningsTest {

    private static final String METADATA = "[Consumer clientId=sluice-a] Error while fetching metadata with correlation"
            + " id %d : {orders=UNKNOWN_TOPIC_OR_PARTITION}";

    /** As Kafka's clients log it: formatted before it reaches the logger, the node and port in the text. */
    private static final String REFUSED = "[Consumer clientId=sluice-a] Connection to node %d (/127.0.0.1:%d) could not"
            + " be established. Node may not be available.";

    private final AtomicLong now = new AtomicLong();
    private final LoggerContext context = new LoggerContext();
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private final RepeatedWarnings filter = new RepeatedWarnings(now::get, Duration.ofSeconds(60));

    RepeatedWarningsTest() {
        filter.setContext(context);
        filter.start();
        context.addTurboFilter(filter);
        lines.setContext(context);
        lines.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(lines);
    }

    @Test
    void aRetryingClientsWarningShowsOnceAMinuteWithTheCountOfTheOthers() {
        Logger kafka = context.getLogger("org.apache.kafka.clients.NetworkClient");
        for (int second = 0; second < 150; second++) {
            now.set(Duration.ofSeconds(second).toNanos());
            kafka.warn(REFUSED.formatted(1, 9092));
            kafka.warn(METADATA.formatted(second)); // a new correlation id each time: the same kind
        }
        String count = "the next warning came 59 more times in the 1 min since it last showed, not shown (--verbose "
                + "shows each)";
        assertEquals(List.of(REFUSED.formatted(1, 9092), METADATA.formatted(0),
                count, REFUSED.formatted(1, 9092), count, METADATA.formatted(60),
                count, REFUSED.formatted(1, 9092), count, METADATA.formatted(120)), messages());
    }

    /** The consumer's report of a rebalance listener that threw: the engine says why itself, in words. */
    @Test
    void aFailedRebalanceListenerIsLeftToTheEngineToSay() {
        Logger invoker = context.getLogger(
                "org.apache.kafka.clients.consumer.internals.ConsumerRebalanceListenerInvoker");
        invoker.error("User provided listener {} failed on invocation of onPartitionsAssigned for partitions {}",
                "an application's listener", "[orders-0]", new IllegalStateException("lost"));
        // as the consumer logs it, through its LogContext: the client's name before the words
        invoker.error("[Consumer clientId=sluice-a, groupId=sluice-mirror.m] User provided listener {} failed on "
                + "invocation of onPartitionsAssigned for partitions {}", "io.sluice.x", "[orders-0]",
                new IllegalStateException("lost"));
        invoker.error("any other error still shows");
        assertEquals(List.of("any other error still shows"), messages());
    }

    /** The producer's retry warning for each partition of a broker that stopped: one kind, not one per partition. */
    @Test
    void aProducersRetryWarningForEveryPartitionIsOneKind() {
        Logger sender = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        for (int p = 0; p < 36; p++) {
            sender.warn("[Producer clientId=sluice-mirror-0] Received invalid metadata error in produce request on "
                    + "partition dc1.orders.a-" + p + " due to org.apache.kafka.common.errors."
                    + "NotLeaderOrFollowerException: For requests intended only for the leader. Going to request "
                    + "metadata update now");
        }
        assertEquals(1, messages().size(), messages().toString());
        assertEquals(java.util.Map.of("kafka", 35L), filter.heldBack());
    }

    /** The same warning of a producer for each partition (a mirror's, its target down) is one kind, not one each. */
    @Test
    void theSameWarningOfEachOfAMirrorsProducersIsOneKind() {
        Logger network = context.getLogger("org.apache.kafka.clients.NetworkClient");
        for (int p = 0; p < 12; p++) {
            network.warn("[Producer clientId=sluice-mirror.m-" + p + ", transactionalId=sluice-mirror.m-orders-" + p
                    + "] Connection to node 2 (/127.0.0.1:9093) could not be established. Node may not be available.");
        }
        network.warn("[Producer clientId=sluice-mirror.m-0] Connection to node 3 (/127.0.0.1:9094) could not be "
                + "established. Node may not be available.");
        assertEquals(2, messages().size(), "one for each broker: " + messages());
        assertEquals(java.util.Map.of("kafka", 11L), filter.heldBack());
    }

    /**
     * A logger quieted to errors drops its warnings after the filter: they are neither shown nor held back, so the
     * last line does not count "warnings that repeated one shown earlier" of which none showed.
     */
    @Test
    void warningsOfALoggerSetAboveWarnAreNotCountedAsHeldBack() {
        Logger quiet = context.getLogger("org.apache.kafka.clients.consumer.internals.OffsetFetcherUtils");
        quiet.setLevel(ch.qos.logback.classic.Level.ERROR);
        for (int i = 0; i < 5; i++) {
            quiet.warn("Not updating last stable offset for partition orders-0 as it is no longer assigned");
        }
        assertEquals(List.of(), messages());
        assertEquals(java.util.Map.of(), filter.heldBack());
    }

    /** Warnings about different partitions or brokers say different things: each shows. */
    @Test
    void partitionsAndBrokersAreKeptApart() {
        Logger fetcher = context.getLogger("org.apache.kafka.clients.consumer.internals.Fetcher");
        List<String> lines = List.of("Resetting offset for partition orders-3 to position 17",
                "Resetting offset for partition orders-7 to position 17", REFUSED.formatted(1, 9092),
                REFUSED.formatted(2, 9093));
        lines.forEach(fetcher::warn);
        fetcher.warn("Resetting offset for partition orders-3 to position 912");
        assertEquals(lines, messages());
    }

    @Test
    void otherKindsAndSluicesOwnLinesAreNotHeldBack() {
        Logger kafka = context.getLogger("org.apache.kafka.clients.NetworkClient");
        Logger producer = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        Logger engine = context.getLogger("io.sluice.engine");
        kafka.warn(REFUSED.formatted(1, 9092));
        producer.warn("Got error produce response with correlation id 17 on topic-partition clicks-0, retrying");
        producer.warn("Got error produce response with correlation id 18 on topic-partition clicks-0, retrying");
        engine.warn("cannot reach the source cluster ({}) for {} s", "127.0.0.1:9092", 5);
        engine.warn("cannot reach the source cluster ({}) for {} s", "127.0.0.1:9092", 5);
        kafka.info("an INFO line is not a warning: {}", 1);
        kafka.info("an INFO line is not a warning: {}", 2);
        kafka.error("an error always shows");
        kafka.error("an error always shows");
        kafka.warn(REFUSED.formatted(1, 9092));
        assertEquals(List.of(
                "[Consumer clientId=sluice-a] Connection to node 1 (/127.0.0.1:9092) could not be established. Node "
                        + "may not be available.",
                "Got error produce response with correlation id 17 on topic-partition clicks-0, retrying",
                "cannot reach the source cluster (127.0.0.1:9092) for 5 s",
                "cannot reach the source cluster (127.0.0.1:9092) for 5 s",
                "an INFO line is not a warning: 1",
                "an INFO line is not a warning: 2",
                "an error always shows",
                "an error always shows"), messages());
    }

    /** What was held back when the command ends is counted by source, once. */
    @Test
    void whatIsHeldBackAtTheEndIsCountedBySourceOnce() {
        Logger kafka = context.getLogger("org.apache.kafka.clients.NetworkClient");
        Logger producer = context.getLogger("org.apache.kafka.clients.producer.internals.Sender");
        Logger s3 = context.getLogger("software.amazon.awssdk.core.internal.http.RetryableStage");
        for (int i = 0; i < 5; i++) {
            kafka.warn(REFUSED.formatted(1, 9092));
        }
        producer.warn("Got error produce response with correlation id 17 on topic-partition clicks-0, retrying");
        producer.warn("Got error produce response with correlation id 18 on topic-partition clicks-0, retrying");
        s3.warn("Retrying after a 503");
        s3.warn("Retrying after a 503");
        s3.warn("a warning shown once is not counted");
        assertEquals(Map.of("kafka", 5L, "s3", 1L), filter.heldBack());
        assertEquals(Map.of(), filter.heldBack(), "counted once");
        now.set(Duration.ofSeconds(61).toNanos());
        kafka.warn(REFUSED.formatted(1, 9092));
        assertEquals(REFUSED.formatted(1, 9092), messages().get(messages().size() - 1),
                "the next one after the minute shows without a count: it was counted at the end already");
    }

    /** The command's last line counts what was held back, in the command's log stream. */
    @Test
    void theCommandsLastLineCountsWhatWasHeldBack() {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Logging.configure(log, LogFormat.TEXT, false);
        org.slf4j.Logger kafka = LoggerFactory.getLogger("org.apache.kafka.clients.NetworkClient");
        for (int i = 0; i < 3; i++) {
            kafka.warn(REFUSED.formatted(1, 9092));
        }
        Logging.finish();
        Logging.finish();
        String said = log.toString(StandardCharsets.UTF_8);
        assertEquals(2, said.lines().count(), said);
        assertTrue(said.lines().skip(1).findFirst().orElseThrow().endsWith(
                "INFO  warnings: 2 kafka warnings that repeated one shown earlier were not shown (--verbose shows "
                        + "each)"), said);
    }

    @Test
    void eachLineSaysWhoItIsFromInAWordNotAClassName() {
        assertEquals("kafka", LogSource.of("org.apache.kafka.clients.NetworkClient"));
        assertEquals("s3", LogSource.of("software.amazon.awssdk.core.internal.http.RetryableStage"));
        assertEquals("hdfs", LogSource.of("org.apache.hadoop.hdfs.DataStreamer"));
        assertEquals("storage", LogSource.of("io.sluice.storage.sink.OpenFiles"));
        assertEquals("mirror", LogSource.of("io.sluice.mirror.topics.TopicSync"));
        assertEquals("engine", LogSource.of("io.sluice.engine"));
        assertEquals("progress", LogSource.of("sluice.progress"));
    }

    private List<String> messages() {
        return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    }
}
