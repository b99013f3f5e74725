package io.sluice.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.EngineTestSupport;
import io.sluice.cli.MeteredArchive;
import io.sluice.cli.RunFailure;
import io.sluice.cli.progress.ProgressSample;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

/** The metrics, health and readiness endpoint over HTTP, against engines on the real broker. */
class MetricsServerTest {

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesTheEnginesAndTheSinksMetersAndReportsLivenessAndReadiness() throws Exception {
        String topic = Names.unique("metrics-http");
        kafka.createTopic(topic, 2);
        EngineTestSupport.produceJson(kafka, topic, 1_000);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            assertTrue(server.address().getAddress().isLoopbackAddress(), "bound to loopback by default");
            assertEquals("200 STARTING", get(server, "/health"));
            assertEquals("503 NOT READY: the run is starting", get(server, "/ready"));

            MeteredArchive run = MeteredArchive.start(kafka, topic, registry,
                    new RollingPolicy(1 << 20, 100, Duration.ofMinutes(5), 8), null);
            EngineConfig config = run.config();
            ArchiveSink sink = run.sink();
            Engine engine = run.engine();
            Path dir = run.dir();
            server.watch(engine);
            EngineTestSupport.await("ready", () -> get(server, "/ready").equals("200 READY: 2 partitions assigned"));
            assertEquals("200 RUNNING", get(server, "/health"));
            Map<String, String> group = Map.of("group", config.groupId());
            EngineTestSupport.await("every record counted", () -> metric(server, "sluice_records_completed_total", group)
                    == 1_000);
            ProgressSample progress = ProgressSample.of(engine, () -> sink.counters().published());
            assertEquals(1_000, progress.records(), "the progress line reads the same engine");
            assertEquals(metric(server, "sluice_bytes_consumed_total", group), progress.bytes());
            assertEquals(0, metric(server, "sluice_source_unanswered_seconds", group), "the broker answers");
            engine.close();

            assertEquals(Health.STOPPED, engine.health());
            assertEquals("503 NOT READY: the engine is STOPPED", get(server, "/ready"));
            assertEquals("200 STOPPED", get(server, "/health"));
            assertEquals(files(dir), metric(server, "sluice_sink_files_published_total", group), "files published");
            assertTrue(files(dir) >= 10, "100 records a file: " + files(dir));
            assertTrue(metric(server, "sluice_bytes_consumed_total", group) > 1_000 * 8, "bytes consumed");
            assertEquals("404 not found; try / (the status page), /metrics, /health or /ready", get(server, "/nothing"));
        }
    }

    @Test
    void aFailedEngineIsNotHealthyAndSaysWhy() throws Exception {
        String topic = Names.unique("metrics-fail");
        kafka.createTopic(topic, 1);
        EngineTestSupport.produceJson(kafka, topic, 10);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            EngineConfig config = EngineTestSupport.config(kafka, topic).meterRegistry(registry).maxAttempts(1).build();
            Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
                throw new IllegalStateException("the handler cannot go on");
            });
            server.watch(engine);
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the engine stops");
            String health = get(server, "/health");
            assertTrue(health.startsWith("503 FAILED: ") && health.contains("the handler cannot go on"), health);
            assertEquals("503 NOT READY: the engine is FAILED", get(server, "/ready"));
        }
    }

    /**
     * An engine that failed and still drains (here: a record of another partition still running) is already unhealthy:
     * a drain after a failure can wait a minute on a cluster that does not answer, and /health said 200 DRAINING.
     */
    @Test
    void anEngineThatFailedIsUnhealthyWhileItStillDrains() throws Exception {
        String topic = Names.unique("metrics-fail-drain");
        kafka.createTopic(topic, 2);
        EngineTestSupport.produceJson(kafka, topic, 20);
        CountDownLatch release = new CountDownLatch(1);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            EngineConfig config = EngineTestSupport.config(kafka, topic).meterRegistry(registry).maxAttempts(1).build();
            Engine engine = Engine.start(config, new StringDeserializer(), new StringDeserializer(), record -> {
                if (record.partition() == 0) {
                    throw new IllegalStateException("the handler cannot go on");
                }
                release.await(); // partition 1's record runs until the test has looked
            });
            server.watch(engine);
            try {
                EngineTestSupport.await("a failed engine that drains", () -> engine.health() == Health.DRAINING
                        && engine.failure().isPresent());
                String health = get(server, "/health");
                assertTrue(health.startsWith("503 FAILED: ") && health.contains("the handler cannot go on"), health);
            } finally {
                release.countDown();
            }
            assertTrue(engine.awaitTermination(Duration.ofSeconds(60)), "the engine stops");
        }
    }

    /**
     * A mirror riding out a target that is down starts itself again, and between starts its /health read 503 FAILED: a
     * liveness probe would restart the process during the very outage the command rides out (a new user's run).
     */
    @Test
    void aRunThatStartsAgainByItselfIsAliveButNotReady() throws Exception {
        try (MetricsServer server = MetricsServer.start(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT), 0)) {
            server.watch(RunHealth.restarting("the mirror", "the target cluster did not answer"));
            assertEquals("200 STARTING: starting again after: the target cluster did not answer",
                    get(server, "/health"));
            assertEquals("503 NOT READY: the mirror is STARTING, starting again after: the target cluster did not "
                    + "answer", get(server, "/ready"));
        }
    }

    @Test
    void aPortInUseIsSaidAsTheUserWroteTheAddress() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer taken = MetricsServer.start(registry, 0)) {
            int port = taken.uri("/").getPort();
            RunFailure failure = assertThrows(RunFailure.class, () -> MetricsServer.startIfAsked(registry,
                    Optional.of(new InetSocketAddress("127.0.0.1", port))));
            assertTrue(failure.getMessage().startsWith("cannot serve metrics on 127.0.0.1:" + port + ": "),
                    failure.getMessage());
            assertTrue(failure.getMessage().endsWith("; choose another port, or 0 for any free one"),
                    failure.getMessage());
        }
    }

    /** "status body", the body's trailing newline dropped. */
    private String get(MetricsServer server, String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri(path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() + " " + r.body().stripTrailing();
        } catch (Exception e) {
            throw new AssertionError("GET " + path + ": " + e, e);
        }
    }

    private double metric(MetricsServer server, String name, Map<String, String> labels) {
        String scrape = get(server, "/metrics");
        assertTrue(scrape.startsWith("200 "), scrape);
        return PrometheusText.sum(scrape.substring(4), name, labels).orElse(-1);
    }

    private static long files(Path dir) throws Exception {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).filter(p -> !dir.relativize(p).startsWith("_sluice")).count();
        }
    }
}
