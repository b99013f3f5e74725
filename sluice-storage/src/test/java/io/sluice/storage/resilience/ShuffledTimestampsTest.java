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
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.sink.ArchiveCounts;
import io.sluice.storage.sink.ArchiveSink;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.TestDirs;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Records whose timestamps are shuffled over 48 hours, archived by hour ({@code dt=.../hr=...}): the number of files
 * stays within the bound of {@code docs/rolling.md}, files ≤ rolls × min(open-file bound, hours), and the rolls
 * themselves stay within the count each trigger allows. Rolling depends only on the records' order here (no age or
 * memory rolls), so the figures are the same on every run.
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

    @BeforeAll
    static void produceShuffledHours() {
        dense = produce(200);
        sparse = produce(4);
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

    @Test
    void withAnOpenFileBoundAboveTheHoursNoRollIsForcedAndFilesStayLarge() throws Exception {
        Result r = archive(dense, 64);
        assertEquals(0, r.counters.boundRolls(), "48 hours fit in 64 open files");
        assertWithinBound(r, 64);
        double perFile = (double) r.records / r.files;
        System.out.printf("[shuffled] bound 64: %d files, %d rolls, %.1f records per file%n", r.files,
                r.counters.rolls(), perFile);
        assertTrue(perFile >= MAX_RECORDS / 2.0, "files average " + perFile + " records; a roll seals every hour's "
                + "file when the fullest reaches " + MAX_RECORDS + ", and shuffled hours fill evenly");
    }

    @Test
    void withAnOpenFileBoundBelowTheHoursRollsAreForcedButEachSealsAtMostTheBound() throws Exception {
        Result r = archive(sparse, 16);
        assertTrue(r.counters.boundRolls() > 0, "48 shuffled hours overflow 16 open files");
        assertWithinBound(r, 16);
        System.out.printf("[shuffled] bound 16: %d files, %d rolls (%d forced by the bound), %.1f records per file%n",
                r.files, r.counters.rolls(), r.counters.boundRolls(), (double) r.records / r.files);
    }

    /** The bound of docs/rolling.md, for one partition with no age or memory rolls. */
    private static void assertWithinBound(Result r, int maxOpenFiles) {
        long rolls = r.counters.rolls();
        long bound = r.counters.boundRolls();
        assertEquals(0, r.counters.pressureRolls());
        assertEquals(r.counters.sealedFiles(), r.files, "every sealed file is visible, nothing else");
        assertTrue(r.files <= rolls * Math.min(maxOpenFiles, HOURS), r.files + " files from " + rolls + " rolls");
        // a record-count roll seals at least MAX_RECORDS records, a bound roll at least maxOpenFiles; plus the last
        assertTrue(rolls - bound <= r.records / MAX_RECORDS + 1, (rolls - bound) + " rolls not forced by the bound");
        assertTrue(bound <= r.records / maxOpenFiles, bound + " rolls forced by the bound");
    }

    private record Result(ArchiveCounts counters, int records, int files) {
    }

    private static Result archive(String topic, int maxOpenFiles) throws Exception {
        int records = HOURS * (topic.equals(dense) ? 200 : 4);
        LocalBackend backend = new LocalBackend(TestDirs.newDir("shuffled-" + maxOpenFiles));
        ArchiveSink sink = new ArchiveSink(backend,
                new Layout("{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/", null, ZoneOffset.UTC, null),
                new JsonLinesFormat(Codec.ZSTD, false, false),
                new RollingPolicy(1L << 30, MAX_RECORDS, Duration.ofHours(1), maxOpenFiles), true);
        EngineRuns.untilWritten(Engine.startSink(EngineRuns.config(KAFKA, topic).build(), sink), records,
                Duration.ofSeconds(60));
        Map<String, Integer> visible = VisibleOffsets.read(backend);
        VisibleOffsets.assertExactlyOnce(visible, Map.of(0, (long) records));
        List<String> files = VisibleOffsets.files(backend);
        assertEquals(HOURS, files.stream().map(f -> f.substring(0, f.lastIndexOf('/'))).distinct().count(),
                "one directory per hour");
        return new Result(sink.counters(), records, files.size());
    }
}
