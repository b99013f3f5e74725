package io.sluice.cli.status;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.cli.RunFailure;
import io.sluice.core.Engine;
import io.sluice.core.Health;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint of a running pipeline, on the JDK's own server: {@code /metrics} in Prometheus' text format (the
 * engine's and the sink's meters), {@code /health} for liveness (503 once the engine has failed, 200 STARTING while
 * a mirror or merge waits to start again by itself: {@link RunHealth#restarting}), {@code /ready}
 * (200 while the engine runs with partitions assigned), and {@code /} a status page for a person (per partition lag,
 * rates, times to catch up, live plots), fed by {@code /status.json}. Bound to 127.0.0.1 unless told otherwise, since
 * metrics name topics and groups.
 *
 * <p>Threading: requests are served on one daemon thread of its own; {@link #watch} and {@link #close} may be called
 * from any thread.
 */
public final class MetricsServer implements AutoCloseable {

    private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPEN_METRICS = "application/openmetrics-text";
    private static final String PAGE_RESOURCE = "status.html";

    private final HttpServer server;
    private final ExecutorService executor;
    private final PrometheusMeterRegistry registry;
    private volatile Engine engine;
    private volatile RunHealth run;

    private MetricsServer(HttpServer server, ExecutorService executor, PrometheusMeterRegistry registry) {
        this.server = server;
        this.executor = executor;
        this.registry = registry;
    }

    /**
     * The endpoint, when {@code endpoint} asks for one (null otherwise), serving {@code registry}; logs where it is.
     *
     * @throws RunFailure when the address cannot be bound
     */
    public static MetricsServer startIfAsked(PrometheusMeterRegistry registry, Optional<InetSocketAddress> endpoint)
            throws RunFailure {
        if (endpoint.isEmpty()) {
            return null;
        }
        try {
            MetricsServer server = start(registry, endpoint.get());
            LoggerFactory.getLogger("sluice.run").info("status page at {}, metrics at /metrics, liveness at "
                    + "/health, readiness at /ready", server.uri("/"));
            return server;
        } catch (IllegalStateException e) {
            throw new RunFailure(e.getMessage(), e);
        }
    }

    /** Serves on 127.0.0.1:{@code port} (0 picks a free port). */
    public static MetricsServer start(PrometheusMeterRegistry registry, int port) {
        return start(registry, new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    }

    public static MetricsServer start(PrometheusMeterRegistry registry, InetSocketAddress address) {
        HttpServer server;
        // host:port as the user wrote it; InetSocketAddress prints "localhost/127.0.0.1:9400" or "/127.0.0.1:9400"
        String where = address.getHostString() + ":" + address.getPort();
        try {
            server = HttpServer.create(address, 16);
        } catch (BindException e) {
            throw new IllegalStateException("cannot serve metrics on " + where + ": " + e.getMessage()
                    + "; choose another port, or 0 for any free one", e);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serve metrics on " + where + ": " + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "sluice-metrics-http");
            t.setDaemon(true);
            return t;
        });
        MetricsServer metrics = new MetricsServer(server, executor, registry);
        server.setExecutor(executor);
        server.createContext("/", metrics::serve);
        server.start();
        return metrics;
    }

    /**
     * The engine whose health {@code /health} and {@code /ready} report, and whose figures the status page shows;
     * until then the run is starting.
     */
    public void watch(Engine engine) {
        this.engine = engine;
        this.run = RunHealth.of(engine);
    }

    /** A run without an engine (a merge) whose health {@code /health} and {@code /ready} report. */
    public void watch(RunHealth run) {
        this.run = run;
    }

    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** {@code http://host:port/path} of this server. */
    public URI uri(String path) {
        InetSocketAddress a = address();
        return URI.create("http://" + a.getHostString() + ":" + a.getPort() + path);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "only GET and HEAD\n");
                return;
            }
            switch (exchange.getRequestURI().getPath()) {
                case "/metrics" -> metrics(exchange);
                case "/health" -> health(exchange);
                case "/ready" -> ready(exchange);
                case "/", "/index.html" -> send(exchange, 200, "text/html; charset=utf-8", page());
                case "/status.json" -> send(exchange, 200, "application/json",
                        StatusJson.of(engine, run, registry, System.currentTimeMillis()));
                default -> send(exchange, 404, "text/plain; charset=utf-8",
                        "not found; try / (the status page), /metrics, /health or /ready\n");
            }
        }
    }

    private void metrics(HttpExchange exchange) throws IOException {
        String accept = String.valueOf(exchange.getRequestHeaders().getFirst("Accept"));
        String type = accept.contains(OPEN_METRICS) ? OPEN_METRICS + "; version=1.0.0; charset=utf-8"
                : PROMETHEUS_TEXT;
        send(exchange, 200, type, registry.scrape(type));
    }

    private void health(HttpExchange exchange) throws IOException {
        RunHealth r = run;
        if (r == null) {
            send(exchange, 200, "text/plain; charset=utf-8", "STARTING\n");
        } else if (r.health() == Health.FAILED) {
            send(exchange, 503, "text/plain; charset=utf-8", "FAILED: "
                    + r.failure().map(Throwable::getMessage).orElse("no reason recorded") + "\n");
        } else {
            send(exchange, 200, "text/plain; charset=utf-8", r.health() + r.note().map(n -> ": " + n).orElse("")
                    + "\n");
        }
    }

    private void ready(HttpExchange exchange) throws IOException {
        RunHealth r = run;
        String notReady = r == null ? "the run is starting"
                : r.health() != Health.RUNNING
                        ? r.what() + " is " + r.health() + r.note().map(n -> ", " + n).orElse("")
                : r.partitions() == 0 ? "no partitions assigned (joining the group, or more instances than "
                        + "partitions)" : null;
        if (notReady != null) {
            send(exchange, 503, "text/plain; charset=utf-8", "NOT READY: " + notReady + "\n");
        } else {
            send(exchange, 200, "text/plain; charset=utf-8", "READY: " + r.partitions() + " partitions assigned\n");
        }
    }

    private static String page() throws IOException {
        try (InputStream in = MetricsServer.class.getResourceAsStream(PAGE_RESOURCE)) {
            if (in == null) {
                throw new IOException("the status page is missing from this build (" + PAGE_RESOURCE + ")");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void send(HttpExchange exchange, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
