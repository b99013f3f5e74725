package io.sluice.storage.resilience;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.sluice.core.Engine;
import io.sluice.core.EngineConfig;
import io.sluice.core.Health;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.backend.S3Backend;
import io.sluice.storage.backend.S3Config;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveCounts;
import io.sluice.storage.sink.ArchiveSink;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The archive in a child JVM for the resilience tests, configured by {@code key=value} arguments: {@code bootstrap},
 * {@code topic}, {@code group}, {@code layout}, {@code maxOpenFiles}, {@code maxRecords}, {@code expect} (records),
 * and either {@code root} (local files) or {@code s3} (endpoint), {@code bucket}, {@code access}, {@code secret},
 * {@code spool}; optionally {@code format}: {@code jsonl} (zstd, the default) or {@code parquet} (zstd, the values
 * {@code {k string, i int, text string}}), each with its defaults. Rolls by record count, at close, and when the open
 * files hold more than the sink's limit (pressure rolls).
 *
 * <p>Prints {@code SLUICE-READY}; {@code SLUICE-WRITTEN <heap the sink counts for its open files> live=<heap live
 * after a full collection>} once {@code expect} records are in open files; on SIGTERM closes the engine and prints
 * {@code SLUICE-CLOSED} with the rolls, pressure rolls, files and the peak heap; if the engine fails, prints
 * {@code SLUICE-FAILED <errors>} and exits with status 1.
 */
public final class ArchiverMain {

    private ArchiverMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (String arg : args) {
            a.put(arg.substring(0, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        HeapPeak heap = new HeapPeak();
        StorageBackend backend = a.containsKey("root") ? new LocalBackend(Path.of(a.get("root")))
                : new S3Backend(S3Config.builder(a.get("bucket")).endpoint(URI.create(a.get("s3")))
                        .spoolDirectory(Path.of(a.get("spool")))
                        .credentials(StaticCredentialsProvider.create(AwsBasicCredentials.create(a.get("access"),
                                a.get("secret"))))
                        .build());
        ArchiveSink sink = new ArchiveSink(backend, new Layout(a.get("layout"), null, ZoneOffset.UTC, null),
                format(a.getOrDefault("format", "jsonl")), new RollingPolicy(1L << 40,
                        Long.parseLong(a.get("maxRecords")), Duration.ofHours(1), Integer.parseInt(a.get("maxOpenFiles"))),
                // a thousand open files hold about 160 MiB (JSON Lines + zstd: codec and S3 spool buffers) or 195 MiB
                // (Parquet + zstd: the writers' own heap and spool buffers): allow it, so the test shows them all open
                // at once rather than the pressure rolls that the default limit would force
                true, 256L << 20);
        EngineConfig config = EngineConfig.builder()
                .bootstrapServers(a.get("bootstrap"))
                .topics(a.get("topic"))
                .groupId(a.get("group"))
                .consumerProperty("session.timeout.ms", 6_000)
                .consumerProperty("heartbeat.interval.ms", 1_000)
                .commitInterval(Duration.ofMillis(200))
                .drainTimeout(Duration.ofMinutes(2)) // the last roll of a thousand files to S3 takes a while
                .build();
        Engine engine = Engine.startSink(config, sink);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            engine.close();
            ArchiveCounts counts = sink.counters();
            System.out.println("SLUICE-CLOSED " + engine.health() + " rolls=" + counts.rolls()
                    + " pressure-rolls=" + counts.pressureRolls() + " files="
                    + counts.sealedFiles() + " peak-heap-after-gc=" + heap.afterGc.get()
                    + " peak-heap-used=" + heap.peakUsed() + " after " + uptime());
            System.out.flush();
        }, "close-engine"));
        System.out.println("SLUICE-READY after " + uptime());
        System.out.flush();

        long expect = Long.parseLong(a.getOrDefault("expect", "-1"));
        boolean written = false;
        while (!engine.awaitTermination(Duration.ofMillis(20))) {
            if (!written && engine.stats().completed() >= expect && expect >= 0) {
                written = true;
                System.out.println("SLUICE-WRITTEN " + sink.bufferedBytes() + " live=" + liveHeap() + " after "
                        + uptime());
                System.out.flush();
            }
        }
        if (engine.health() == Health.FAILED) {
            StringBuilder errors = new StringBuilder();
            for (Throwable t = engine.failure().orElseThrow(); t != null; t = t.getCause()) {
                errors.append(" | ").append(t);
            }
            System.out.println("SLUICE-FAILED" + errors);
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }
    }

    /** JSON Lines + zstd, or Parquet + zstd with the schema of the test's values. */
    private static FileFormat format(String name) {
        FormatConfig.Builder format = FormatConfig.builder().format(name).codec("zstd");
        if (name.equals("parquet")) {
            format.valueSchema("""
                    {"type": "record", "name": "Line", "fields": [{"name": "k", "type": "string"},
                      {"name": "i", "type": "int"}, {"name": "text", "type": "string"}]}""");
        }
        return format.build().fileFormat();
    }

    /** What the heap holds now, garbage aside: a full collection first. */
    private static long liveHeap() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String uptime() {
        return ManagementFactory.getRuntimeMXBean().getUptime() + " ms";
    }

    /** The heap's high-water marks: the most live after any collection, and the most in use at all. */
    private static final class HeapPeak {
        final AtomicLong afterGc = new AtomicLong();
        private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();

        HeapPeak() {
            List<String> names = pools.stream().map(MemoryPoolMXBean::getName).toList();
            for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener((n, h) -> {
                    if (n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
                        Map<String, MemoryUsage> after = GarbageCollectionNotificationInfo
                                .from((CompositeData) n.getUserData()).getGcInfo().getMemoryUsageAfterGc();
                        long live = names.stream().mapToLong(p -> after.containsKey(p) ? after.get(p).getUsed() : 0)
                                .sum();
                        afterGc.accumulateAndGet(live, Math::max);
                    }
                }, null, null);
            }
        }

        long peakUsed() {
            return pools.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        }
    }
}
