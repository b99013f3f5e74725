package io.sluice.cli.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.EngineTestSupport;
import io.sluice.cli.MeteredArchive;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import io.sluice.testkit.browser.HeadlessChromium;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The status page on the metrics port (issue 17), loaded in a real headless browser during a run: what a person sees
 * must be what the engine and the sink report.
 */
class StatusPageTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaCluster kafka = SharedKafka.cluster();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aBrowserShowsEachPartitionsLagRateAndTheRunsTotalsWithLivePlots() throws Exception {
        String topic = Names.unique("status-page");
        kafka.createTopic(topic, 2);
        EngineTestSupport.produceJson(kafka, topic, 1_000);
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (MetricsServer server = MetricsServer.start(registry, 0)) {
            MeteredArchive run = MeteredArchive.start(kafka, topic, registry,
                    new RollingPolicy(1 << 20, 100, Duration.ofSeconds(1), 8), Duration.ofMillis(300)); // tails roll
            server.watch(run.engine());
            EngineTestSupport.await("every record durable", () -> {
                JsonNode s = status(server);
                return s.path("records").asLong() == 1_000 && s.path("partitions").size() == 2
                        && s.path("partitions").get(0).path("durableLag").asLong() == 0
                        && s.path("partitions").get(1).path("durableLag").asLong() == 0;
            });
            JsonNode status = status(server);
            long files = status.path("filesPublished").asLong();
            assertTrue(files >= 10, "100 records a file: " + files);

            String page = HeadlessChromium.dumpDom(server.uri("/"), Duration.ofSeconds(5));

            assertEquals("RUNNING", text(page, "span", "state"));
            assertEquals("1,000", text(page, "div", "records"));
            assertEquals("0", text(page, "div", "lag"));
            assertEquals("0", text(page, "div", "durable-lag"));
            assertEquals("caught up", text(page, "div", "eta"));
            assertEquals(String.format("%,d", files), text(page, "div", "files"));
            assertEquals("0", text(page, "div", "dead-letters"));
            assertEquals("0", text(page, "div", "paused"));
            assertEquals("0, 0", text(page, "div", "errors"));
            for (int p = 0; p < 2; p++) {
                String row = row(page, topic + "-" + p);
                long committed = status.path("partitions").get(p).path("committedOffset").asLong();
                assertTrue(committed > 0, "partition " + p + " committed: " + status);
                assertTrue(row.contains("<td class=\"committed\">" + String.format("%,d", committed) + "</td>"), row);
                assertTrue(row.contains("<td class=\"durable-lag\">0</td>"), row);
                assertTrue(row.contains("<td class=\"eta\">caught up</td>"), row);
                assertTrue(row.contains("<td class=\"state\">reading</td>"), row);
            }
            // several polls within the page's five seconds: both plots have lines with points
            assertTrue(points(page, "throughput") >= 2, "the throughput plot has a line: " + plot(page, "throughput"));
            assertTrue(points(page, "durable-lag") >= 3, "the lag plot has a line: " + plot(page, "durable-lag"));
            String updated = text(page, "span", "updated");
            assertTrue(updated.startsWith("updated "), "the last poll answered: " + updated);

            Path png = TestDirs.newDir("status-page-shot").resolve("status.png");
            HeadlessChromium.screenshot(server.uri("/"), png, 1200, 760, Duration.ofSeconds(4));
            assertTrue(Files.size(png) > 10_000, "a screenshot with something on it: " + Files.size(png) + " bytes");
            run.engine().close();
            run.sink().close();
        }
    }

    private JsonNode status(MetricsServer server) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(server.uri("/status.json")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return JSON.readTree(r.body());
        } catch (Exception e) {
            throw new AssertionError("GET /status.json: " + e, e);
        }
    }

    /**
     * The time to catch up, from the page's own script in the browser: records held in open files wait for the next
     * commit, not for the rate, so a source written at a trickle is kept up with (it read "13 h" at 2 records a second
     * beside 90,000 held), and a backlog takes its consumed lag over the rate.
     */
    @Test
    void theTimeToCatchUpCountsOnlyTheConsumedLagAgainstTheRate() throws Exception {
        String html;
        try (InputStream in = MetricsServer.class.getResourceAsStream("status.html")) {
            html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String cases = String.join(",", "eta(2, 90000, 2)", "eta(3, 3, 20)", "eta(0, 5000, 20)", "eta(600, 600, 20)",
                "eta(600, 90000, 20)", "eta(600, 90000, 0)", "eta(-1, 600, 20)", "eta(5, 0, 20)", "eta(5, -1, 20)");
        Path page = TestDirs.newDir("status-eta").resolve("eta.html");
        Files.writeString(page, html.replace("</body>", "<pre id=\"cases\"></pre><script>document.getElementById("
                + "\"cases\").textContent = [" + cases + "].join(\" | \");</script></body>"));
        String dom = HeadlessChromium.dumpDom(page.toUri(), Duration.ofSeconds(1));
        assertEquals(String.join(" | ", "keeping up; the rest at the next commit", "keeping up",
                "consumed all; at the next commit", "30 s", "30 s; the rest at the next commit",
                "not catching up; the rest at the next commit", "30 s", "caught up", "unknown"),
                text(dom, "pre", "cases"));
    }

    /**
     * A partition without a leader in the source cluster (it neither moves nor knows its lag) says so in its row,
     * before any other state: it stood at "reading", its lag as of its last answer, without a word. So does one whose
     * leader stopped answering this process while the cluster still lists it. A partition stopped at a gap (records it
     * was to read are gone) says that first: it never moves again here.
     */
    @Test
    void aPartitionWithoutALeaderSaysSoInItsRow() throws Exception {
        String html;
        try (InputStream in = MetricsServer.class.getResourceAsStream("status.html")) {
            html = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String partition = "{topic: 'orders', partition: %d, committedOffset: 40, watermark: 40, lag: 7, "
                + "durableLag: 7, paused: %s, stuckMillis: 0%s}";
        String status = "{time: Date.now(), state: 'RUNNING', records: 80, consumed: 80, bytes: 8000, "
                + "deadLettered: 0, skipped: 0, failedAttempts: 0, commits: 3, commitFailures: 0, "
                + "pausedPartitions: 1, stuckPartitions: 0, queuedBytes: 0, budgetBytes: 1000, filesPublished: 2, "
                + "partitions: [" + String.format(partition, 0, "false", "") + ", "
                + String.format(partition, 1, "true", ", noLeaderSeconds: 22") + ", "
                + String.format(partition, 2, "false", ", silentBroker: 3, silentBrokerSeconds: 95") + ", "
                + String.format(partition, 3, "true", ", stoppedAtGap: 'orders-3: offsets 5 to 9 were deleted', "
                        + "noLeaderSeconds: 30") + "]}";
        Path page = TestDirs.newDir("status-leaderless").resolve("leaderless.html");
        Files.writeString(page, html.replace("</body>", "<script>render(" + status + ");</script></body>"));
        String dom = HeadlessChromium.dumpDom(page.toUri(), Duration.ofSeconds(1));
        assertTrue(row(dom, "orders-1").contains("<td class=\"state stuck\">no leader for 22 s</td>"),
                row(dom, "orders-1"));
        assertTrue(row(dom, "orders-2").contains("<td class=\"state stuck\">no answer from broker 3 for 1 min 35 s"
                + "</td>"), row(dom, "orders-2"));
        assertTrue(row(dom, "orders-0").contains("<td class=\"state\">reading</td>"), row(dom, "orders-0"));
        assertTrue(row(dom, "orders-3").contains("<td class=\"state stuck\">stopped: orders-3: offsets 5 to 9 were "
                + "deleted</td>"), row(dom, "orders-3"));
    }

    /** The text of the element {@code <tag id="id" ...>text</tag>}. */
    private static String text(String page, String tag, String id) {
        Matcher m = Pattern.compile("<" + tag + "[^>]* id=\"" + id + "\"[^>]*>([^<]*)</" + tag + ">").matcher(page);
        assertTrue(m.find(), "an element #" + id + " in the page:\n" + page);
        return m.group(1);
    }

    private static String row(String page, String partition) {
        Matcher m = Pattern.compile("<tr data-partition=\"" + Pattern.quote(partition) + "\">(.*?)</tr>")
                .matcher(page);
        assertTrue(m.find(), "a row for " + partition + " in the page:\n" + page);
        return m.group(1);
    }

    private static String plot(String page, String line) {
        Matcher m = Pattern.compile("<polyline class=\"line " + line + "\"[^>]* points=\"([^\"]*)\"").matcher(page);
        assertTrue(m.find(), "a " + line + " line in the page:\n" + page);
        return m.group(1);
    }

    private static int points(String page, String line) {
        String points = plot(page, line).trim();
        return points.isEmpty() ? 0 : points.split(" ").length;
    }
}
