package io.sluice.cli.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.EngineTestSupport;
import io.sluice.cli.MeteredArchive;
import io.sluice.cli.status.MetricsServer;
import io.sluice.cli.status.PrometheusText;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Lag that means durable (issue 17): with a long {@code rolling.max-age}, every record is consumed long before its
 * file is committed; the progress line and {@code /metrics} must not call that "caught up".
 */
class DurableLagTest {

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void consumedLagZeroIsNotCaughtUpUntilTheFilesAreCommitted() throws Exception {
        String topic = Names.unique("durable-lag");
        kafka.createTopic(topic, 2);
        EngineTestSupport.produceJson(kafka, topic, 1_000);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            MeteredArchive run = MeteredArchive.start(kafka, topic, registry,
                    new RollingPolicy(1 << 20, 1_000_000, Duration.ofMinutes(10), 8), Duration.ofMillis(300));
            EngineConfig config = run.config();
            ArchiveSink sink = run.sink();
            Engine engine = run.engine();
            Map<String, String> group = Map.of("group", config.groupId());
            EngineTestSupport.await("every record consumed", () -> metric(server, "sluice_records_completed_total",
                    group) == 1_000 && metric(server, "sluice_partition_lag", group) == 0);
            Thread.sleep(1_500); // several commit intervals: commits happen, but the open files are not theirs

            assertEquals(1_000, metric(server, "sluice_partition_durable_lag", group), "every record still in an "
                    + "open file");
            assertEquals(0, metric(server, "sluice_partition_lag", group), "every record consumed");
            assertEquals(0, metric(server, "sluice_sink_files_published_total", group));
            ProgressSample held = ProgressSample.of(engine, () -> sink.counters().published(), sink::untilAgeRoll);
            assertEquals(0, held.lag());
            assertEquals(1_000, held.durableLag());
            String line = ProgressLine.render(held, held);
            assertFalse(line.contains("caught up"), line);
            assertTrue(line.startsWith("1,000 records · lag 0 · consumed all, 1,000 not yet durable, next commit "
                    + "in ~9 min"), line);

            engine.close(); // the final commit seals and publishes the open files

            ProgressSample done = ProgressSample.of(engine, () -> sink.counters().published(), sink::untilAgeRoll);
            assertEquals(0, done.durableLag(), "the stop summary reads the lag the final commit left");
            assertEquals("1,000 records · lag 0 · caught up · 2 files committed", ProgressLine.render(done, done));
            assertEquals(0, metric(server, "sluice_partition_durable_lag", group));
            assertEquals(2, metric(server, "sluice_sink_files_published_total", group));
            sink.close();
        }
    }

    private double metric(MetricsServer server, String name, Map<String, String> labels) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return PrometheusText.sum(r.body(), name, labels).orElse(-1);
        } catch (Exception e) {
            throw new AssertionError("GET /metrics: " + e, e);
        }
    }
}
