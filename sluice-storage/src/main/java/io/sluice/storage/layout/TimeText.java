package io.sluice.storage.layout;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.zone.ZoneRules;
import java.util.Locale;

/**
 * One {@code {ts:<pattern>}} of a path template: formats instants in the layout's zone, and remembers the texts of the
 * last buckets it formatted. A pattern such as {@code yyyy-MM-dd} or {@code HH} gives the same text for a whole day or
 * hour, so most records reuse a text instead of formatting it again (which costs more than the rest of the layout).
 * Not only the last text: late records, or a topic whose records are spread over days, come from many buckets at
 * once, and with one remembered text each of them was formatted again (a tenth of the layout's time on
 * {@code archive-parquet-48h}, records spread over 48 hours). {@value #REMEMBERED} texts, one per bucket number modulo
 * that, hold two days of hours or two months of days.
 *
 * <p>The text is reused only within one <em>bucket</em>: the same local-time step of the pattern's finest field (a
 * second, minute, hour or day) at the same UTC offset, which is everything such a pattern can show. Patterns with a
 * finer field (fractions of a second, milli- or nano-of-day) or a zone name (it depends on daylight saving rather
 * than only on the offset) are formatted every time.
 *
 * <p>Threading: safe for concurrent use. Each remembered text is one immutable object in a plain array slot: a thread
 * sees there nothing, its own entry or another thread's, each correct for the bucket it names.
 */
final class TimeText {

    private static final long NOT_CACHED = 0;
    private static final long SECOND = 1;
    private static final long MINUTE = 60;
    private static final long HOUR = 3_600;
    private static final long DAY = 86_400;
    /** Texts remembered, a power of two: a slot is the bucket's number modulo this. */
    static final int REMEMBERED = 64;

    private final DateTimeFormatter format;
    private final ZoneId zone;
    /** Fetched once: {@code ZoneOffset.getRules()} builds a new object at every call. */
    private final ZoneRules rules;
    /** The bucket's length in seconds, or {@link #NOT_CACHED}. */
    private final long bucketSeconds;
    private final Last[] remembered = new Last[REMEMBERED];

    private record Last(long bucket, int offsetSeconds, String text) {
    }

    /** @throws IllegalArgumentException for a pattern {@link DateTimeFormatter} refuses */
    TimeText(String pattern, ZoneId zone) {
        this.format = DateTimeFormatter.ofPattern(pattern, Locale.ROOT);
        this.zone = zone;
        this.rules = zone.getRules();
        this.bucketSeconds = bucketSeconds(pattern);
    }

    String format(Instant time) {
        if (bucketSeconds == NOT_CACHED) {
            return format.format(time.atZone(zone));
        }
        int offset = rules.getOffset(time).getTotalSeconds();
        long bucket = Math.floorDiv(time.getEpochSecond() + offset, bucketSeconds);
        int slot = (int) (bucket & (REMEMBERED - 1));
        Last seen = remembered[slot];
        if (seen != null && seen.bucket == bucket && seen.offsetSeconds == offset) {
            return seen.text;
        }
        String text = format.format(time.atZone(zone));
        remembered[slot] = new Last(bucket, offset, text);
        return text;
    }

    /**
     * Why valid patterns would still file records in wrong folders, or null: letters that read like the ones meant
     * ({@code YYYY-MM-dd} put 2024-12-30 in {@code 2025-12-30}; {@code hh} put 03:00 and 15:00 in one folder: a new user's
     * run, which validate called valid). Each is fine where its companion shows it is meant.
     *
     * @param letters the unquoted letters of every time pattern of a template together ({@link #unquotedLetters}):
     *                {@code year={ts:YYYY}/week={ts:ww}/} is a week-based layout
     */
    static String mistake(String letters) {
        if (letters.indexOf('Y') >= 0 && letters.indexOf('w') < 0) {
            return "Y is the week-based year, which differs from the calendar year around New Year (2024-12-30 falls "
                    + "in week-based year 2025): write yyyy for the year, or add ww for folders by week";
        }
        if ((letters.indexOf('h') >= 0 || letters.indexOf('K') >= 0) && letters.indexOf('a') < 0) {
            return (letters.indexOf('h') >= 0 ? "h" : "K") + " is the hour of a 12-hour clock, the same for 03:00 and "
                    + "15:00 without a (AM/PM): write HH for the hour of the day, or add a";
        }
        boolean month = letters.indexOf('M') >= 0 || letters.indexOf('L') >= 0;
        if (letters.indexOf('D') >= 0 && month) {
            return "D is the day of the year (1 to 366), and a month beside it: write dd for the day of the month";
        }
        if (letters.indexOf('m') >= 0 && letters.indexOf('d') >= 0 && !month && letters.indexOf('H') < 0
                && letters.indexOf('h') < 0 && letters.indexOf('k') < 0 && letters.indexOf('K') < 0) {
            return "m is the minute of the hour, here beside the day but with no hour: write MM for the month";
        }
        return null;
    }

    static String unquotedLetters(String pattern) {
        StringBuilder letters = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && Character.isLetter(c)) {
                letters.append(c);
            }
        }
        return letters.toString();
    }

    /**
     * The longest step of local time within which the pattern's text cannot change: that of its finest field.
     * Quoted text is literal; letters not known here disable the cache rather than risk a stale text.
     */
    static long bucketSeconds(String pattern) {
        long bucket = DAY;
        boolean quoted = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\'') {
                quoted = !quoted; // '' inside or outside quotes toggles twice: a literal quote
                continue;
            }
            if (quoted || !Character.isLetter(c)) {
                continue;
            }
            bucket = Math.min(bucket, switch (c) {
                case 'G', 'u', 'y', 'D', 'M', 'L', 'd', 'g', 'Q', 'q', 'Y', 'w', 'W', 'E', 'e', 'c', 'F' -> DAY;
                case 'a', 'h', 'K', 'k', 'H' -> HOUR;
                case 'B', 'm' -> MINUTE; // day periods may start on any minute
                case 's' -> SECOND;
                case 'V', 'O', 'X', 'x', 'Z' -> DAY; // the zone ID is fixed; offsets are part of the bucket
                default -> NOT_CACHED; // S, A, n, N (finer than a second), z and v (names), anything else
            });
            if (bucket == NOT_CACHED) {
                return NOT_CACHED;
            }
        }
        return bucket;
    }
}
