package io.sluice.storage.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.json.JsonEncoding;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

class LayoutTest {

    private static final String TEMPLATE = "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/category={value.category}/";

    @Test
    void rendersTopicTimeAndFieldsFromTheRecordTimestamp() throws Exception {
        Layout layout = new Layout(TEMPLATE, null, ZoneOffset.UTC, null);
        // 2026-11-21T22:15:00Z
        assertEquals("clicks/dt=2026-11-21/hr=22/category=view/",
                directory(layout, 1_795_299_300_000L, "{\"category\":\"view\"}"));
    }

    @Test
    void takesTheTimeFromAValueFieldInTheLayoutsZone() throws Exception {
        Layout layout = new Layout(TEMPLATE, "event.time", ZoneId.of("Europe/Oslo"), null);
        assertEquals("clicks/dt=2026-11-21/hr=23/category=buy/",
                directory(layout, 0, "{\"event\":{\"time\":\"2026-11-21T22:15:00Z\"},\"category\":\"buy\"}"));
        assertEquals("clicks/dt=2026-11-21/hr=23/category=buy/",
                directory(layout, 0, "{\"event\":{\"time\":1795299300000},\"category\":\"buy\"}"));
    }

    @Test
    void aMissingFieldIsRejectedWithTheReasonOrGoesToTheDefaultBucket() throws Exception {
        Layout strict = new Layout(TEMPLATE, null, ZoneOffset.UTC, null);
        RecordRejectedException e = assertThrows(RecordRejectedException.class,
                () -> directory(strict, 0, "{\"other\":1}"));
        assertEquals("the path template needs value.category, which is missing, null, or an object or a list: a "
                + "folder name is made of a text, a number or a boolean", e.getMessage());
        RecordRejectedException empty = assertThrows(RecordRejectedException.class,
                () -> directory(strict, 0, "{\"category\":\"\"}"));
        assertEquals("the path template needs value.category, which is an empty text: a folder needs a name",
                empty.getMessage());

        Layout lenient = new Layout(TEMPLATE, "ts", ZoneOffset.UTC, "_unknown");
        assertEquals("clicks/dt=_unknown/hr=_unknown/category=_unknown/", directory(lenient, 0, "{\"ts\":\"yesterday\"}"));
        RecordRejectedException bad = assertThrows(RecordRejectedException.class,
                () -> directory(new Layout(TEMPLATE, "ts", ZoneOffset.UTC, null), 0, "{\"ts\":\"yesterday\"}"));
        assertTrue(bad.getMessage().contains("'yesterday', neither epoch milliseconds nor an ISO-8601"), bad.getMessage());
    }

    /** A record without a timestamp (-1) was filed under 1969-12-31/23, where no query of its day would find it. */
    @Test
    void aRecordWithoutATimestampIsRejectedWithTheReasonOrGoesToTheDefaultBucket() throws Exception {
        String template = "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/";
        RecordRejectedException e = assertThrows(RecordRejectedException.class,
                () -> directory(new Layout(template, null, ZoneOffset.UTC, null), -1, "{}"));
        assertEquals("the path template needs the record's timestamp, which is missing (-1: its producer gave none, or "
                + "it was written in the message format of Kafka before 0.10)", e.getMessage());
        Layout lenient = new Layout(template, null, ZoneOffset.UTC, "_unknown");
        assertEquals("clicks/dt=_unknown/hr=_unknown/", directory(lenient, -1, "{}"));
        assertEquals("clicks/dt=1970-01-01/hr=00/", directory(lenient, 0, "{}"), "0 is a time: the epoch");
        assertEquals("clicks/", directory(new Layout("{topic}/", null, ZoneOffset.UTC, null), -1, "{}"),
                "a layout without the time needs none");
    }

    @Test
    void aValueThatIsNotAnObjectIsSaidSoNotOnlyThatTheFieldIsMissing() {
        // "missing" alone read as a misspelt field to a new user whose values were JSON arrays
        RecordRejectedException list = assertThrows(RecordRejectedException.class,
                () -> directory(new Layout(TEMPLATE, null, ZoneOffset.UTC, null), 0, "[1,2,3]"));
        assertEquals("the path template needs value.category, which is missing: the value is an array in JSON, not "
                + "an object", list.getMessage());
        RecordRejectedException text = assertThrows(RecordRejectedException.class,
                () -> directory(new Layout(TEMPLATE, "ts", ZoneOffset.UTC, null), 0, "\"hello\""));
        assertEquals("the path template needs value.ts, which is missing: the value is a string in JSON, not an "
                + "object", text.getMessage());
    }

    @Test
    void fieldValuesCannotLeaveTheirDirectory() throws Exception {
        Layout layout = new Layout("{value.category}/", null, ZoneOffset.UTC, null);
        assertEquals("..%2F..%2Fetc/", directory(layout, 0, "{\"category\":\"../../etc\"}"));
        assertEquals("%2E%2E/", directory(layout, 0, "{\"category\":\"..\"}"));
        assertEquals("caf%C3%A9%20bar/", directory(layout, 0, "{\"category\":\"café bar\"}"));
        // the archive's own folder: a record filed there sat among the manifests, and verify called them unsound
        assertEquals("%5Fsluice/", directory(layout, 0, "{\"category\":\"_sluice\"}"));
        assertEquals("%5FSluice/", directory(layout, 0, "{\"category\":\"_Sluice\"}"), "a file system may ignore case");
        assertEquals("_sluice2/", directory(layout, 0, "{\"category\":\"_sluice2\"}"));
        assertEquals("%5Fsluice/x/", directory(new Layout("_{value.category}/x/", null, ZoneOffset.UTC, null), 0,
                "{\"category\":\"sluice\"}"), "made of a literal and a value");
        assertEquals("clicks/_sluice/", directory(new Layout("{topic}/{value.category}/", null, ZoneOffset.UTC, null),
                0, "{\"category\":\"_sluice\"}"), "below the root, no folder of the archive's: as before");
    }

    @Test
    void mistakesInTheTemplateAreExplained() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Layout("{topic}", null, ZoneOffset.UTC, null))
                .getMessage().contains("must end with '/'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Layout("{topc}/", null, ZoneOffset.UTC, null))
                .getMessage().contains("unknown placeholder {topc}"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Layout("{ts:qqqqqq}/", null, ZoneOffset.UTC,
                null)).getMessage().contains("bad time pattern"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Layout("_Sluice/{topic}/", null,
                ZoneOffset.UTC, null)).getMessage().contains("begins with _sluice/, the archive's own folder"));
    }

    private static String directory(Layout layout, long timestamp, String value) throws Exception {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("clicks", 0, 0, timestamp, TimestampType.CREATE_TIME,
                -1, -1, null, bytes, new RecordHeaders(), Optional.empty());
        return layout.directory(record, JsonEncoding.INSTANCE.reader(layout.fieldPaths(), false).read(bytes));
    }
}
