package io.sluice.storage.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.backend.LocalBackend;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.ArchivedFormats;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * What the sink sees of a format. A record the format rejects (a value that does not match the Parquet schema) is
 * handled as one the layout rejects: it goes back to the engine with the reason, held or written, the partition
 * carries on, and no file is left for it. And the
 * memory a Parquet writer holds is reported to the engine's budget.
 */
class FormatRejectionTest {

    /** Daemon threads, shared by the class's tests. */
    private static final StorageCalls STORAGE_CALLS = new StorageCalls(4);

    private static final String SCHEMA = """
            {"type": "record", "name": "Click", "fields": [
              {"name": "category", "type": "string"}, {"name": "n", "type": "long"}]}""";

    @Test
    void aRejectedRecordLeavesNoFileBehindAndThePartitionCarriesOn() throws Exception {
        Path root = TestDirs.newDir("format-rejection");
        LocalBackend backend = new LocalBackend(root);
        TopicPartition tp = new TopicPartition("clicks", 0);
        PartitionArchive archive = new PartitionArchive(tp, "topic-id", backend,
                new Layout("{topic}/category={value.category}/", null, ZoneOffset.UTC, null),
                FormatConfig.builder().format("parquet").valueSchema(SCHEMA).build().fileFormat(),
                new RollDecision(RollingPolicy.defaults(), Long.MAX_VALUE), false, new ArchiveCounters(),
                new MemoryPressure(List.of()), STORAGE_CALLS, Compressors.INLINE);
        archive.recover(0, Optional.empty());

        // a directory's first records are held until they pay for a file: one the schema rejects is rejected on
        // arrival, and nothing is held or staged for it
        RecordRejectedException first = assertThrows(RecordRejectedException.class,
                () -> archive.write(record(0, "{\"category\": \"a\", \"n\": \"one\"}")));
        assertEquals("the value does not match the schema: field 'n': expected long, found string \"one\"",
                first.getMessage());
        assertTrue(backend.listStaged("_sluice/staging/topic-id/0/").isEmpty(), "no staged file for it");
        assertEquals(0, archive.bufferedBytes());

        archive.write(record(1, "{\"category\": \"a\", \"n\": 1}"));
        assertTrue(archive.bufferedBytes() > 0, "the held record counts for the memory budget");
        assertThrows(RecordRejectedException.class, () -> archive.write(record(2, "{\"category\": \"a\"}")));
        archive.write(record(3, "{\"category\": \"b\", \"n\": 3}"));
        assertTrue(backend.listStaged("_sluice/staging/topic-id/0/").isEmpty(), "held: nothing staged yet");

        // a directory whose records pass what a file costs gets one; a record rejected then leaves it as it was
        long offset = 4;
        while (backend.listStaged("_sluice/staging/topic-id/0/").isEmpty() && offset < 50_000) {
            archive.write(record(offset, "{\"category\": \"c\", \"n\": " + offset + "}"));
            offset++;
        }
        assertEquals(1, backend.listStaged("_sluice/staging/topic-id/0/").size(), "c's file, after " + (offset - 4)
                + " records");
        long rejectedAt = offset;
        assertThrows(RecordRejectedException.class, () -> archive.write(record(rejectedAt,
                "{\"category\": \"c\", \"n\": \"bad\"}")));
        archive.write(record(rejectedAt + 1, "{\"category\": \"c\", \"n\": 1}"));
        assertEquals(1, backend.listStaged("_sluice/staging/topic-id/0/").size());
        // a value that stops being JSON after the layout's field: the layout reads no further (the writer parses the
        // whole value), and the conversion rejects it, in a file or held
        for (String category : List.of("c", "d")) {
            RecordRejectedException notJson = assertThrows(RecordRejectedException.class, () -> archive.write(
                    record(rejectedAt + 2, "{\"category\": \"" + category + "\", \"n\": tru}")));
            assertTrue(notJson.getMessage().startsWith("the value is not JSON"), notJson.getMessage());
        }
        archive.checkpoint(true);
        assertEquals(0, archive.bufferedBytes(), "rolled: nothing held");

        List<String> files = List.of("clicks/category=a/clicks+0+1.zstd.parquet",
                "clicks/category=b/clicks+0+3.zstd.parquet", "clicks/category=c/clicks+0+4.zstd.parquet");
        assertEquals(files, backend.list("clicks/").stream().sorted().toList());
        List<Long> offsets = new ArrayList<>();
        for (String file : files) {
            ArchivedFormats.rowsOf(file).orElseThrow().read(root.resolve(file), (t, p, o) -> offsets.add(o));
        }
        List<Long> expected = new ArrayList<>(List.of(1L, 3L));
        for (long o = 4; o < rejectedAt; o++) {
            expected.add(o);
        }
        expected.add(rejectedAt + 1);
        assertEquals(expected, offsets);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, String value) {
        return new ConsumerRecord<>("clicks", 0, offset, 0L, TimestampType.CREATE_TIME, -1, -1, null,
                value.getBytes(StandardCharsets.UTF_8), new RecordHeaders(), Optional.empty());
    }
}
