package io.sluice.cli.lag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.status.MetricsServer;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The lag report against the real broker, with the report's clock in the test's hands. */
class LagReportTest {

    private static final long DAY = 86_400_000L;

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void lagRatesTimeToCatchUpAndRetentionLeftFromTwoSamples() throws Exception {
        String topic = Names.unique("lag");
        String group = Names.unique("lag-group");
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        kafka.createTopic(new NewTopic(topic, 2, (short) 1).configs(Map.of("retention.ms", Long.toString(DAY))));
        long now = System.currentTimeMillis();
        long base0 = now - 2 * 3_600_000L;
        long base1 = now - 3_600_000L;
        LagTestRecords.produce(kafka, p0, base0, 100);
        LagTestRecords.produce(kafka, p1, base1, 100);
        commit(group, Map.of(p0, 20L, p1, 50L));
        TestClock clock = new TestClock(Instant.ofEpochMilli(now));

        try (LagReport report = new LagReport(inputs(group, topic, List.of()), clock, Duration.ofHours(1))) {
            LagView first = report.sample();
            assertEquals(List.of(80L, 50L), first.rows().stream().map(LagView.Row::lag).collect(Collectors.toList()));
            assertTrue(first.verdict().endsWith("Unknown yet: measuring the processing rate takes two samples; 1 h "
                    + "needs 0.04 rec/s."), first.verdict());

            // ten seconds later: p0 processed 20, p1 processed 10 while 5 more arrived
            commit(group, Map.of(p0, 40L, p1, 60L));
            LagTestRecords.produce(kafka, p1, now, 5);
            clock.advance(Duration.ofSeconds(10));
            LagView view = report.sample();

            LagView.Row r0 = view.rows().get(0);
            assertEquals(List.of(100L, 40L, 60L), List.of(r0.end(), r0.committed(), r0.lag()));
            assertEquals(2.0, r0.processedRate());
            assertEquals(0.0, r0.producedRate());
            assertEquals(Duration.ofSeconds(30), r0.catchUp().value());
            // the oldest unconsumed record of p0 is record 40, stamped base0 + 40 s; retention keeps a day
            Duration age0 = Duration.ofMillis(now + 10_000 - (base0 + 40_000));
            assertEquals(age0, r0.oldestAge());
            assertEquals(Duration.ofMillis(DAY).minus(age0), r0.retentionLeft().value());
            assertTrue(r0.lagBytes() >= 60 * 1_000 && r0.lagBytes() <= 60 * 1_300, "about 1 kB a record: "
                    + r0.lagBytes());

            LagView.Row r1 = view.rows().get(1);
            assertEquals(List.of(105L, 60L, 45L), List.of(r1.end(), r1.committed(), r1.lag()));
            assertEquals(1.0, r1.processedRate());
            assertEquals(0.5, r1.producedRate());
            assertEquals(Duration.ofSeconds(90), r1.catchUp().value(), "45 records at a net 0.5 a second");

            LagView.Totals t = view.totals();
            assertEquals(105, t.lag());
            assertEquals(3.0, t.processedRate());
            assertEquals(Duration.ofSeconds(42), t.catchUp().value(), "105 records at a net 2.5 a second");
            assertEquals(p0, t.soonestDeletion());
            assertEquals("committed offsets over 10 s", t.rateSource());
            assertTrue(view.verdict().startsWith("Can the lag of 105 records ("), view.verdict());
            assertTrue(view.verdict().endsWith("the oldest 1 h 59 min old) be caught up within 1 h? Yes: in about "
                    + "42 s, at 3.00 rec/s processed against 0.50 rec/s produced."), view.verdict());
            assertEquals(List.of(), view.warnings());
            String text = report.render(view);
            assertTrue(text.contains("\nTotal lag 105 records ("), text);
        }
    }

    @Test
    void aRunningInstancesMetricsGiveTheRateAndDeletedRecordsAreReportedLost() throws Exception {
        String topic = Names.unique("lag-metrics");
        String group = Names.unique("lag-group");
        TopicPartition p0 = new TopicPartition(topic, 0);
        kafka.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", Long.toString(DAY))));
        long now = System.currentTimeMillis();
        // stamped ten minutes and more inside the day of retention: nothing expires during the test
        LagTestRecords.produce(kafka, p0, now - DAY + 600_000, 100);
        commit(group, Map.of(p0, 20L));
        // what retention does to a backlog nobody processed: the log start moves past the commit
        kafka.admin().deleteRecords(Map.of(p0, RecordsToDelete.beforeOffset(30))).all().get(30, TimeUnit.SECONDS);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Counter completed = Counter.builder("sluice.records.completed").tag("group", group).register(registry);
        TestClock clock = new TestClock(Instant.ofEpochMilli(now));
        try (MetricsServer server = MetricsServer.start(registry, 0);
                LagReport report = new LagReport(inputs(group, topic, List.of(server.uri("/metrics"))), clock,
                        Duration.ofHours(1))) {
            report.sample();
            completed.increment(250);
            clock.advance(Duration.ofSeconds(10));
            LagView view = report.sample();

            assertEquals(25.0, view.totals().processedRate(), "250 records in 10 s by the counter");
            assertEquals("the instances' metrics over 10 s", view.totals().rateSource());
            assertEquals(70, view.totals().lag(), "counted from the log start, past the deleted records");
            // record 30, the oldest left, is stamped a day less 630 s before the first sample, 10 s before this one
            assertEquals(Duration.ofSeconds(620), view.totals().retentionLeft().value());
            assertEquals(List.of(p0 + ": offsets 20 to 29 (10 records) were deleted before the group processed them "
                    + "(retention, compaction or delete-records); a mirror stops that partition there, and its lag "
                    + "stands still until its progress is moved past (docs/mirror.md, Loud gaps)"), view.warnings());
        }
    }

    /**
     * A group that commits every second or so on a topic written all the time: its lag comes and goes, and two samples
     * can show it processing a little slower than the topic grows. Three runs of lag on such a mirror, a few seconds
     * apart, read "Yes", then "No: the lag does not shrink" with a retention warning.
     */
    @Test
    void aGroupWhoseLagIsSecondsOfItsProcessingKeepsUp() throws Exception {
        String topic = Names.unique("lag-keeping-up");
        String group = Names.unique("lag-keeping-up-group");
        TopicPartition p0 = new TopicPartition(topic, 0);
        kafka.createTopic(new NewTopic(topic, 1, (short) 1).configs(Map.of("retention.ms", Long.toString(DAY))));
        long now = System.currentTimeMillis();
        LagTestRecords.produce(kafka, p0, now - DAY / 2, 1_000);
        commit(group, Map.of(p0, 990L));
        TestClock clock = new TestClock(Instant.ofEpochMilli(now));
        try (LagReport report = new LagReport(inputs(group, topic, List.of()), clock, Duration.ofHours(1))) {
            report.sample();
            // ten seconds later: 200 more written, 195 more processed; the lag grew from 10 to 15
            LagTestRecords.produce(kafka, p0, now, 200);
            commit(group, Map.of(p0, 1_185L));
            clock.advance(Duration.ofSeconds(10));
            LagView view = report.sample();
            assertEquals(15, view.totals().lag());
            assertTrue(view.verdict().endsWith("Yes: it keeps up; the lag is under 10 s of processing at 19.5 rec/s "
                    + "processed against 20.0 rec/s produced, and comes and goes with the group's commits."),
                    view.verdict());
            assertEquals(List.of(), view.warnings());
        }
    }

    /**
     * A commit past the partition's end (a mirror's progress on a source topic deleted and created again) read as no
     * lag: "No lag: the group has processed everything", while the new topic's records were never copied.
     */
    @Test
    void aCommitPastThePartitionsEndIsNotNoLag() throws Exception {
        String topic = Names.unique("lag-past");
        String group = Names.unique("lag-past-group");
        TopicPartition p0 = new TopicPartition(topic, 0);
        TopicPartition p1 = new TopicPartition(topic, 1);
        kafka.createTopic(topic, 2);
        long now = System.currentTimeMillis();
        LagTestRecords.produce(kafka, p0, now, 10);
        LagTestRecords.produce(kafka, p1, now, 10);
        commit(group, Map.of(p0, 1_541L, p1, 10L));
        try (LagReport report = new LagReport(inputs(group, topic, List.of()), Clock.systemUTC(), Duration.ofHours(1))) {
            LagView view = report.sample();
            assertEquals("Unknown: 1 partition has its committed offset past the end (see the warnings); the others "
                    + "have no lag.", view.verdict());
            assertTrue(view.warnings().contains(p0 + ": the committed offset 1,541 is past the partition's end (10): "
                    + "the topic was deleted and created again, or its records deleted, since the group committed; "
                    + "its lag is not known"), view.warnings().toString());
        }
    }

    private LagInputs inputs(String group, String topic, List<java.net.URI> metrics) {
        return new LagInputs(group, List.of(topic), kafka.clientProperties(Listener.PLAINTEXT), metrics);
    }

    private void commit(String group, Map<TopicPartition, Long> offsets) throws Exception {
        kafka.admin().alterConsumerGroupOffsets(group, offsets.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> new OffsetAndMetadata(e.getValue()))))
                .all().get(30, TimeUnit.SECONDS);
    }

    /** A clock the test moves. */
    static final class TestClock extends Clock {
        private Instant now;

        TestClock(Instant now) {
            this.now = now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }
}
