package io.sluice.storage.layout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimeTextTest {

    @ParameterizedTest
    @CsvSource(quoteCharacter = '"', value = {"yyyy-MM-dd, 86400", "HH, 3600", "yyyy-MM-dd'T'HH:mm, 60", "mm:ss, 1", "'at' h a, 3600",
            "yyyy-MM-dd'T'HH:mm:ss.SSS, 0", "HH z, 0", "HH VV, 3600", "HH XXX, 3600", "'it''s' yyyy, 86400",
            "''HH'', 3600", "w, 86400", "B, 60"})
    void theBucketIsThePatternsFinestField(String pattern, long seconds) {
        assertEquals(seconds, TimeText.bucketSeconds(pattern));
    }

    /**
     * Letters that read like the ones meant file records in wrong folders while validate called the pattern valid (a
     * new user's run: {@code YYYY-MM-dd} put 2024-12-30 in 2025-12-30, {@code hh} put 03:00 and 15:00 together).
     */
    @ParameterizedTest
    @CsvSource({"{ts:YYYY-MM-dd}/, Y is the week-based year", "h={ts:hh}/, h is the hour of a 12-hour clock",
            "{ts:yyyy-MM-DD}/, D is the day of the year", "{ts:yyyy-mm-dd}/, m is the minute of the hour",
            "{ts:yyyy}/{ts:KK}/, K is the hour of a 12-hour clock"})
    void lettersThatReadLikeOthersAreSaidWithTheFix(String template, String start) {
        String mistake = new Layout(template, null, ZoneId.of("UTC"), null).timeMistake();
        assertTrue(mistake != null && mistake.startsWith(start), mistake);
    }

    /** The same letters where their companions show they are meant, in the same placeholder or another, or quoted. */
    @ParameterizedTest
    @ValueSource(strings = {"{ts:YYYY-'W'ww}/", "year={ts:YYYY}/week={ts:ww}/", "h={ts:hh}/{ts:a}/",
            "{ts:yyyy-DDD}/", "{ts:yyyy-LL-dd}/{ts:KK-mm a}/", "{ts:yyyy-MM-dd'T'HH:mm}/", "{ts:'hh' HH}/",
            "{ts:mm:ss}/"})
    void theSameLettersWhereTheyAreMeantAreTaken(String template) {
        assertNull(new Layout(template, null, ZoneId.of("UTC"), null).timeMistake());
    }

    /**
     * Walks time forwards, backwards and at random across daylight-saving changes in zones with whole, half and
     * quarter-hour offsets (Lord Howe's daylight saving moves the clock by 30 minutes): every remembered text must be
     * the one formatting gives.
     */
    @ParameterizedTest
    @CsvSource({"UTC", "Europe/Oslo", "America/St_Johns", "Australia/Lord_Howe", "Asia/Kathmandu", "+05:30"})
    void rememberedTextsAreAlwaysWhatFormattingGives(String zoneId) {
        ZoneId zone = ZoneId.of(zoneId);
        String[] patterns = {"yyyy-MM-dd", "HH", "yyyy-MM-dd/HH", "HH:mm", "mm:ss", "HH XXX", "dd VV", "h a"};
        Random random = new Random(7);
        // 2026-03-28 to 2026-04-06 and 2026-10-03 to 2026-11-01 hold the changes of the zones above
        long[] starts = {Instant.parse("2026-03-28T00:00:00Z").getEpochSecond(),
            Instant.parse("2026-10-03T00:00:00Z").getEpochSecond()};
        for (String pattern : patterns) {
            TimeText text = new TimeText(pattern, zone);
            DateTimeFormatter reference = DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
            for (long start : starts) {
                long span = 30L * 86_400;
                for (long s = 0; s < span; s += 97) { // forwards, as records mostly come (every second of the minute)
                    check(text, reference, zone, Instant.ofEpochSecond(start + s, 1_000_000));
                }
                for (long s = span; s > 0; s -= 599) { // backwards
                    check(text, reference, zone, Instant.ofEpochSecond(start + s));
                }
                for (int i = 0; i < 20_000; i++) { // interleaved, as late data is
                    check(text, reference, zone, Instant.ofEpochSecond(start + (long) (random.nextDouble() * span)));
                }
            }
        }
    }

    /**
     * Records spread over two days come from 48 hours at once: each hour's text is formatted once and then remembered
     * (the same string comes back), however the hours interleave; before 1970 as after.
     */
    @ParameterizedTest
    @CsvSource({"2026-11-26T00:00:00Z", "1969-12-30T00:00:00Z"})
    void textsOfManyBucketsAtOnceAreRemembered(String from) {
        TimeText text = new TimeText("yyyy-MM-dd/HH", ZoneId.of("UTC"));
        Instant start = Instant.parse(from);
        String[] first = new String[48];
        for (int hour = 0; hour < 48; hour++) {
            first[hour] = text.format(start.plusSeconds(hour * 3_600L + 59));
        }
        Random random = new Random(11);
        for (int i = 0; i < 1_000; i++) {
            int hour = random.nextInt(48);
            assertSame(first[hour], text.format(start.plusSeconds(hour * 3_600L + random.nextInt(3_600))),
                    () -> "hour " + hour);
        }
    }

    private static void check(TimeText text, DateTimeFormatter reference, ZoneId zone, Instant time) {
        assertEquals(reference.format(time.atZone(zone)), text.format(time), () -> "at " + time + " in " + zone);
    }
}
