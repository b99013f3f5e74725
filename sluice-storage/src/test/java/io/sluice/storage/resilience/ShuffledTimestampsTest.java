package io.sluice.storage.resilience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.Engine;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveCounts;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Records whose timestamps are shuffled over 48 hours, archived by hour ({@code dt=.../hr=...}): the number of files
 * stays within the bound of {@code docs/rolling.md}, files ≤ evictions + rolls × directories, and the
 * rolls themselves stay within the count each trigger allows; and records 1% late over 48 hours leave the current
 * hour in one file. Rolling depends only on the records' order here (no age or memory rolls), so the figures are the
 * same on every run.
 */
class ShuffledTimestampsTest {

    private static final int HOURS = 48;
    /** Records per file that roll the partition. */
    private static final int MAX_RECORDS = 100;
    private static final long SEED = 48;

    private static final KafkaCluster KAFKA = SharedKafka.cluster();
    /** 200 records per hour. */
    private static String dense;
    /** 4 records per hour: enough to overflow a small bound, few enough to keep the tiny files it makes cheap. */
    private static String sparse;
    /** {@link #CURRENT} records in one hour, and every {@link #LATE_EVERY}th instead in one of the 48 before it. */
    private static String late;
    private static final int CURRENT = 3_000;
    /** The start of the late topic's current hour. */
    private static long currentHour;
    private static final int LATE_EVERY = 100;

    @BeforeAll
    static void produceShuffledHours() {
        dense = produce(200);
        sparse = produce(4);
        late = produceLate();
    }

    private static String produceLate() {
        String topic = Names.unique("late");
        KAFKA.createTopic(topic, 1);
        long hour = Duration.ofHours(1).toMillis();
        long now = (System.currentTimeMillis() - hour) / hour * hour; // the current hour: its start, an hour ago
        currentHour = now;
        Random random = new Random(SEED);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < CURRENT; i++) {
                long ts = i % LATE_EVERY == LATE_EVERY - 1 ? now - 1 - random.nextInt((int) (HOURS * hour))
                        : now + i; // a millisecond apart: all in the current hour
                producer.send(new ProducerRecord<>(topic, 0, ts, null, "{\"i\":" + i + "}"));
            }
            producer.flush();
        }
        return topic;
    }

    private static String produce(int perHour) {
        String topic = Names.unique("shuffled");
        KAFKA.createTopic(topic, 1);
        // 72 hours back at most: the broker refuses timestamps more than an hour ahead, and keeps a week
        long hour = Duration.ofHours(1).toMillis();
        long start = (System.currentTimeMillis() - 3 * 24 * hour) / hour * hour;
        Random random = new Random(SEED);
        List<Long> timestamps = new ArrayList<>(HOURS * perHour);
        for (int h = 0; h < HOURS; h++) {
            for (int i = 0; i < perHour; i++) {
                timestamps.add(start + h * hour + random.nextInt((int) hour));
            }
        }
        Collections.shuffle(timestamps, random);
        try (var producer = new KafkaProducer<>(KAFKA.clientProperties(Listener.PLAINTEXT), new StringSerializer(),
                new StringSerializer())) {
            for (int i = 0; i < timestamps.size(); i++) {
                producer.send(new ProducerRecord<>(topic, 0, timestamps.get(i), null, "{\"i\":" + i + "}"));
            }
            producer.flush();
        }
        return topic;
    }

    /**
     * At the open-file bound, a late record is held in memory with its hour's others, and the roll writes each late
     * hour as one file (issue 17): the current hour's file is never cut before the run ends. Before, each late record
     * past the bound rolled every file, the current hour's too (about one in 16 late records cut it); then each
     * evicted the least recently written file, a late hour's, which made a file per late record.
     */
    @Test
    void recordsLateByUpTo48HoursLeaveEveryHourInOneFile() throws Exception {
        Result r = archive(late, CURRENT, new RollingPolicy(1L << 30, 1_000_000, Duration.ofHours(1), 16));
        Map<String, Long> filesPerHour = r.files().stream().collect(Collectors.groupingBy(
                f -> f.substring(0, f.lastIndexOf('/')), Collectors.counting()));
        String current = DateTimeFormatter.ofPattern("'dt='yyyy-MM-dd'/hr='HH").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochMilli(currentHour));
        List<Long> currentFiles = filesPerHour.entrySet().stream().filter(e -> e.getKey().endsWith(current))
                .map(Map.Entry::getValue).toList();
        System.out.printf("[shuffled] 1%% late, bound 16: %d files in %d hours, %d evictions, %d rolls (%d forced)%n",
                r.files().size(), filesPerHour.size(), r.counters.evictions(), r.counters.rolls(),
                r.counters.boundRolls());
        assertTrue(filesPerHour.size() > 16, "30 late records in up to 48 hours overflow 16 open files: "
                + filesPerHour.size() + " hours");
        assertEquals(0, r.counters.evictions(), "a late hour's few records never take the current hour's file");
        assertEquals(1, r.counters.rolls(), "one roll: when the engine closes");
        assertEquals(List.of(1L), currentFiles, "the current hour in one file: " + filesPerHour);
        assertEquals(filesPerHour.size(), r.fileCount(), "every hour in one file: " + filesPerHour);
    }

    @Test
    void withAnOpenFileBoundAboveTheHoursNoRollIsForcedAndFilesStayLarge() throws Exception {
        Result r = archive(dense, 64);
        assertEquals(0, r.counters.boundRolls(), "48 hours fit in 64 open files");
        assertEquals(0, r.counters.evictions(), "48 hours fit in 64 open files");
        assertWithinBound(r, 64);
        double perFile = (double) r.records / r.fileCount();
        System.out.printf("[shuffled] bound 64: %d files, %d rolls, %.1f records per file%n", r.fileCount(),
                r.counters.rolls(), perFile);
        assertTrue(perFile >= MAX_RECORDS / 2.0, "files average " + perFile + " records; a roll seals every hour's "
                + "file when the fullest reaches " + MAX_RECORDS + ", and shuffled hours fill evenly");
    }

    @Test
    void withAnOpenFileBoundBelowTheHoursTheOthersAreHeldAndEachRollWritesAFilePerHour() throws Exception {
        Result r = archive(sparse, 16);
        System.out.printf("[shuffled] bound 16: %d files, %d evictions, %d rolls (%d forced by the bound), %.1f "
                + "records per file%n", r.fileCount(), r.counters.evictions(), r.counters.rolls(),
                r.counters.boundRolls(), (double) r.records / r.fileCount());
        assertWithinBound(r, 16);
        assertEquals(0, r.counters.evictions(), "no hour holds more than a file costs");
        assertEquals(1, r.counters.rolls(), "nothing forces a roll before the engine closes");
        assertEquals(HOURS, r.fileCount(), "one file per hour, 32 of them from held records");
    }

    /** The bound of docs/rolling.md, for one partition with no age or memory rolls. */
    private static void assertWithinBound(Result r, int maxOpenFiles) {
        long rolls = r.counters.rolls();
        long bound = r.counters.boundRolls();
        assertEquals(0, r.counters.pressureRolls());
        long evictions = r.counters.evictions();
        assertEquals(r.counters.sealedFiles(), r.fileCount(), "every sealed file is visible, nothing else");
        assertTrue(r.fileCount() <= evictions + rolls * HOURS, r.fileCount() + " files from " + evictions
                + " evictions and " + rolls + " rolls (each writes a file per hour, open or held)");
        // a record-count roll seals at least MAX_RECORDS records; a roll forced by the bound comes after
        // MAX_PARKED_PER_OPEN_FILE x maxOpenFiles evictions, each of which a record needing another directory made
        assertTrue(rolls - bound <= r.records / MAX_RECORDS + 1, (rolls - bound) + " rolls not forced by the bound");
        assertTrue(evictions <= r.records, evictions + " evictions");
        assertTrue(bound <= evictions / (RollDecision.MAX_PARKED_PER_OPEN_FILE * maxOpenFiles),
                bound + " rolls forced by the bound");
    }

    private record Result(ArchiveCounts counters, int records, List<String> files) {
        int fileCount() {
            return files.size();
        }
    }

    private static Result archive(String topic, int maxOpenFiles) throws Exception {
        return archive(topic, HOURS * (topic.equals(dense) ? 200 : 4),
                new RollingPolicy(1L << 30, MAX_RECORDS, Duration.ofHours(1), maxOpenFiles));
    }

    private static Result archive(String topic, int records, RollingPolicy rolling) throws Exception {
        int maxOpenFiles = rolling.maxOpenFiles();
        LocalBackend backend = new LocalBackend(TestDirs.newDir("shuffled-" + maxOpenFiles));
        ArchiveSink sink = new ArchiveSink(backend,
                new Layout("{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false), rolling, true);
        EngineRuns.untilWritten(Engine.startSink(EngineRuns.config(KAFKA, topic).build(), sink), records,
                Duration.ofSeconds(60));
        Map<String, Integer> visible = VisibleOffsets.read(backend);
        VisibleOffsets.assertExactlyOnce(visible, Map.of(0, (long) records));
        List<String> files = VisibleOffsets.files(backend);
        if (!topic.equals(late)) {
            assertEquals(HOURS, files.stream().map(f -> f.substring(0, f.lastIndexOf('/'))).distinct().count(),
                    "one directory per hour");
        }
        return new Result(sink.counters(), records, files);
    }
}
