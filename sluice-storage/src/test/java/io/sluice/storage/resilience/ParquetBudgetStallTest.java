package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.core.Health;
import io.sluice.core.PartitionStats;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 0, scaled down: a Parquet archive of wide log lines (40 columns, nested records and a list) with tens
 * of open files per partition, under a memory budget and the sink limit the command derives from it (half), stopped
 * for good before the fix. A Parquet file holds about 1.3 MiB of heap however few rows it has (its columns' buffers,
 * dictionaries and compressor), so each busy partition's 18 open files alone hold about 29 MiB: more than half its
 * share of the budget (36 MiB, resumed at 17.5), so it stays paused once its queue is written, while the sink's 62 MiB
 * stay under its 72 MiB limit and never force a roll. The quiet partitions are done and keep their one file each;
 * nothing rolled until the files aged out (an hour here, 10 minutes by default). Small dictionary pages and row groups
 * keep each file's heap near that fixed part, so the state comes at the first pause, not by chance.
 */
class ParquetBudgetStallTest {

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    private static final long BUDGET = 144L << 20;
    /** Partitions 0 and 1 spread over this many directories; 2 and 3 write a few records into one. */
    private static final int BUSY_DIRECTORIES = 18;
    /**
     * A thousand per directory: a directory gets a file once its held records' serialized size passes what a file
     * costs (about 700 KiB here), after some 600 records; until then its records are held, packed, and cost little.
     */
    private static final int BUSY_RECORDS = 36_000;
    private static final int QUIET_RECORDS = 50;
    /** No progress for this long is a stall: commits come every 200 ms, and files would only age out after an hour. */
    private static final Duration STALL = Duration.ofSeconds(8);

    @Test
    void pausedPartitionsWhoseOpenFilesHoldTheirShareRollAndGoOn() throws Exception {
        String topic = Names.unique("wide-parquet");
        KAFKA.createTopic(topic, 4);
        Map<Integer, Long> ends = produce(topic);
        LocalBackend backend = new LocalBackend(TestDirs.newDir("wide-parquet"));
        ArchiveSink sink = new ArchiveSink(backend, new Layout("{topic}/category={value.category}/", null,
                ZoneOffset.UTC, null), FormatConfig.builder().format("parquet").codec("zstd")
                        .valueSchema(WideLogLines.SCHEMA).rowGroupBytes(256 << 10).dictionaryPageBytes(1 << 10).build()
                        .fileFormat(),
                new RollingPolicy(128L << 20, 10_000_000, Duration.ofHours(1), 64), true, BUDGET / 2);
        Engine engine = Engine.startSink(EngineRuns.config(KAFKA, topic).memoryBudgetBytes(BUDGET).build(), sink);
        long total = ends.values().stream().mapToLong(Long::longValue).sum();
        try {
            awaitProgressTo(engine, sink, total);
        } finally {
            engine.close();
        }
        assertEquals(Health.STOPPED, engine.health(), "clean close: " + engine.failure());
        VisibleOffsets.assertExactlyOnce(VisibleOffsets.read(backend), ends);
        System.out.println("[wide-parquet] " + sink.counters());
        assertTrue(sink.counters().pressureRolls() > 0, "the paused partitions rolled to free their share: "
                + sink.counters());
    }

    /** Waits until the sink took {@code total} records; fails when none is taken for {@link #STALL}. */
    private static void awaitProgressTo(Engine engine, ArchiveSink sink, long total) throws InterruptedException {
        long completed = -1;
        long since = System.nanoTime();
        while (engine.stats().completed() < total) {
            if (engine.health() == Health.FAILED) {
                throw new AssertionError("the engine failed: " + engine.failure());
            }
            long now = engine.stats().completed();
            if (now != completed) {
                completed = now;
                since = System.nanoTime();
            } else if (System.nanoTime() - since > STALL.toNanos()) {
                throw new AssertionError("stalled at " + completed + " of " + total + " records for " + STALL
                        + ": " + state(engine, sink));
            }
            Thread.sleep(50);
        }
    }

    /** Each partition: paused or not, its lag and what the sink holds for it; then the sink's and queued totals. */
    private static String state(Engine engine, ArchiveSink sink) {
        String partitions = engine.partitions().stream().map(p -> describe(p, sink))
                .collect(Collectors.joining("; "));
        return partitions + "; the sink holds " + sink.bufferedBytes() + " bytes (its limit: " + BUDGET / 2
                + "); the engine counts " + engine.stats().queuedBytes() + " bytes, what the sink holds included, "
                + "against its budget of " + BUDGET;
    }

    private static String describe(PartitionStats p, ArchiveSink sink) {
        TopicPartition tp = p.partition();
        return "partition " + tp.partition() + (p.paused() ? " paused" : " fetching") + ", lag " + p.lag()
                + ", sink holds " + sink.bufferedBytes(tp) + " bytes";
    }

    /** Partitions 0 and 1 busy over many directories, 2 and 3 quiet; returns each partition's end offset. */
    private static Map<Integer, Long> produce(String topic) throws Exception {
        Map<String, Object> props = new HashMap<>(KAFKA.clientProperties(Listener.PLAINTEXT));
        props.put("linger.ms", 20);
        props.put("batch.size", 512 * 1024);
        props.put("compression.type", "lz4");
        Map<Integer, Long> ends = new HashMap<>();
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int partition = 0; partition < 4; partition++) {
                boolean busy = partition < 2;
                int records = busy ? BUSY_RECORDS : QUIET_RECORDS;
                for (int i = 0; i < records; i++) {
                    String category = busy ? "c" + (i % BUSY_DIRECTORIES) : "quiet";
                    producer.send(new ProducerRecord<>(topic, partition, null, WideLogLines.line(i, category)));
                }
                ends.put(partition, (long) records);
            }
            producer.flush();
        }
        return ends;
    }
}
