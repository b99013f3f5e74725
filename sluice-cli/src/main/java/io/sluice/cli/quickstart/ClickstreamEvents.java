package io.sluice.cli.quickstart;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Realistic clickstream events as JSON: users in sessions viewing pages and products, searching, adding to carts and
 * buying, from a few countries and devices. Event times rise steadily over a window ending now (with a little
 * jitter), as events arrive in a live topic, so the archive's date and hour folders fill in order.
 *
 * <p>Threading: one thread; deterministic for a seed.
 */
public final class ClickstreamEvents {

    /** Event types and their weights in percent. */
    private static final String[] TYPES = {"page_view", "product_view", "search", "add_to_cart", "checkout",
        "purchase", "signup", "logout"};
    private static final int[] WEIGHTS = {38, 26, 12, 10, 5, 3, 2, 4};
    private static final String[] COUNTRIES = {"US", "US", "US", "DE", "GB", "FR", "IN", "BR", "JP", "CA", "NL", "ES"};
    private static final String[] DEVICES = {"mobile", "mobile", "mobile", "desktop", "desktop", "tablet"};
    private static final String[] REFERRERS = {"google", "google", "direct", "direct", "newsletter", "instagram",
        "partner", "bing"};
    private static final String[] PAGES = {"/", "/home", "/deals", "/new", "/category/shoes", "/category/books",
        "/category/garden", "/category/electronics", "/help", "/account"};
    private static final String[] QUERIES = {"running shoes", "usb c cable", "garden hose", "kafka book",
        "headphones", "rain jacket", "coffee grinder", "desk lamp"};
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_INSTANT;

    private final SplittableRandom random;
    private final long count;
    private final long startMillis;
    private final double stepMillis;
    private long produced;
    private long timestamp;
    private String user;

    /** {@code count} events spread over {@code window} ending at {@code end}. */
    public ClickstreamEvents(long seed, long count, Instant end, Duration window) {
        this.random = new SplittableRandom(seed);
        this.count = count;
        this.startMillis = end.minus(window).toEpochMilli();
        this.stepMillis = (double) window.toMillis() / Math.max(1, count);
    }

    public boolean hasNext() {
        return produced < count;
    }

    /** The next event's JSON; {@link #timestamp()} and {@link #key()} describe it afterwards. */
    public String next() {
        long jitter = random.nextLong(-1_500, 1_500);
        timestamp = Math.max(startMillis, (long) (startMillis + produced * stepMillis) + jitter);
        produced++;
        int userNumber = random.nextInt(50_000);
        user = "u" + userNumber;
        String type = type();
        StringBuilder b = new StringBuilder(320);
        b.append("{\"event_id\":\"").append(Long.toHexString(random.nextLong())).append(Long.toHexString(produced))
                .append("\",\"ts\":\"").append(ISO.format(Instant.ofEpochMilli(timestamp)))
                .append("\",\"event_type\":\"").append(type)
                .append("\",\"user_id\":\"").append(user)
                .append("\",\"session_id\":\"s").append(userNumber).append('-').append(timestamp / 1_800_000)
                .append("\",\"country\":\"").append(pick(COUNTRIES))
                .append("\",\"device\":\"").append(pick(DEVICES))
                .append("\",\"referrer\":\"").append(pick(REFERRERS)).append('"');
        switch (type) {
            case "product_view", "add_to_cart", "checkout", "purchase" -> {
                int product = random.nextInt(2_000);
                b.append(",\"page\":\"/products/").append(product)
                        .append("\",\"product_id\":\"p").append(product)
                        .append("\",\"price\":").append(String.format(Locale.ROOT, "%.2f", 4.99 + (product % 200) * 1.5));
                if (!type.equals("product_view")) {
                    b.append(",\"quantity\":").append(1 + random.nextInt(3));
                }
            }
            case "search" -> b.append(",\"page\":\"/search\",\"query\":\"").append(pick(QUERIES)).append('"');
            default -> b.append(",\"page\":\"").append(pick(PAGES)).append('"');
        }
        b.append(",\"duration_ms\":").append(200 + random.nextInt(30_000)).append('}');
        return b.toString();
    }

    /** The time of the event {@link #next()} returned, in epoch milliseconds. */
    public long timestamp() {
        return timestamp;
    }

    /** The Kafka key of the last event: its user, so a user's events stay in order in one partition. */
    public String key() {
        return user;
    }

    private String type() {
        int roll = random.nextInt(100);
        for (int i = 0; i < TYPES.length; i++) {
            roll -= WEIGHTS[i];
            if (roll < 0) {
                return TYPES[i];
            }
        }
        return TYPES[0];
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }
}
