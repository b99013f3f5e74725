package io.sluice.bench;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A scenario's records: application-log JSON values of exactly the scenario's size, keyed over its key space, the
 * same sequence every time (fixed seed). Written once to the broker by {@link #produce}; the codec scenario takes the
 * same sequence from {@link #generator}.
 *
 * <p>The values are meant to compress like real logs (seed 002 measured lz4 at about 3.3x on plaintext logs), not
 * like random bytes (nothing) or one repeated phrase (everything): the field names, levels, services, hosts and
 * message templates repeat, while trace and span ids, numbers, addresses and template parameters vary. Each value has
 * a {@code ts} (epoch milliseconds, seven per record plus or minus a second of jitter, so 2M records span about four
 * hours) and a {@code category}, the fields the archive scenarios lay out by.
 */
public final class BenchData {

    /** 2026-11-18T11:06:40Z: the first record's time. */
    public static final long START_MILLIS = 1_795_000_000_000L;

    /**
     * The values' fields as an Avro record schema, in their order, for formats that need a schema (Parquet, Avro).
     * {@code BenchDataTest} keeps it in step with {@link #value}.
     */
    public static final String LOG_SCHEMA = """
            {"type": "record", "name": "LogLine", "namespace": "io.sluice.bench", "fields": [
              {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
              {"name": "time", "type": "string"},
              {"name": "level", "type": "string"},
              {"name": "service", "type": "string"},
              {"name": "host", "type": "string"},
              {"name": "pod", "type": "string"},
              {"name": "category", "type": "string"},
              {"name": "trace_id", "type": "string"},
              {"name": "span_id", "type": "string"},
              {"name": "user", "type": "string"},
              {"name": "client_ip", "type": "string"},
              {"name": "method", "type": "string"},
              {"name": "path", "type": "string"},
              {"name": "status", "type": "int"},
              {"name": "latency_ms", "type": "int"},
              {"name": "bytes_out", "type": "int"},
              {"name": "user_agent", "type": "string"},
              {"name": "seq", "type": "long"},
              {"name": "message", "type": "string"}
            ]}
            """;

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "INFO", "WARN", "DEBUG", "DEBUG", "ERROR"};
    private static final String[] SERVICES = {"checkout", "search", "auth", "catalog", "payments", "ads", "profile",
            "inventory"};
    private static final String[] CATEGORIES = {"click", "view", "purchase", "signup", "error", "impression"};
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "POST", "PUT", "DELETE"};
    private static final String[] RESOURCES = {"items", "orders", "users", "carts", "sessions", "offers", "reviews",
            "stores"};
    private static final String[] REGIONS = {"eu-west-1", "eu-central-1", "us-east-1", "us-west-2", "ap-south-1"};
    private static final String[] AGENTS = {
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 "
                + "Safari/537.36",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 "
                + "Safari/605.1.15",
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
        "Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile",
        "okhttp/4.12.0",
        "Go-http-client/2.0",
        "curl/8.8.0"};
    private static final String[] MESSAGES = {
        "request served from cache region=%s shard=%d items=%d",
        "upstream %s responded after %d ms with %d bytes, retries=%d",
        "user %s added %d items to cart %s, total=%d.%02d EUR",
        "slow query on table %s took %d ms, rows examined=%d, rows sent=%d",
        "token refreshed for client %s, expires in %d s, scope=read write",
        "rate limit bucket %s at %d of %d requests in window %d",
        "payment authorization %s approved by acquirer in %d ms, amount=%d.%02d",
        "feature flag %s evaluated to variant %d for cohort %d (rollout %d%%)",
        "connection pool %s: active=%d idle=%d waiting=%d",
        "retrying delivery of message %s to partition %d after %d ms (attempt %d)"};

    private BenchData() {
    }

    /** Writes the scenario's records to {@code topic} once, as fast as the broker takes them. */
    static void produce(Map<String, Object> client, String topic, Scenario s) {
        Generator records = generator(s);
        Duration spread = s.archive() == null ? null : s.archive().timeSpread();
        double late = s.archive() == null ? 0 : s.archive().lateFraction();
        Random times = new Random(43);
        try (var producer = producer(client)) {
            for (int i = 0; i < s.records(); i++) {
                byte[] key = records.nextKey();
                byte[] value;
                if (spread == null) {
                    value = records.nextValue();
                } else if (late == 0) {
                    value = records.nextValue(START_MILLIS + (long) (times.nextDouble() * spread.toMillis()));
                } else if (times.nextDouble() < late) {
                    value = records.nextValue(START_MILLIS - 1 - (long) (times.nextDouble() * spread.toMillis()));
                } else {
                    value = records.nextValue();
                }
                producer.send(new ProducerRecord<>(topic, key, value));
            }
            producer.flush();
        }
    }

    /** A producer that writes a scenario's data as fast as the broker takes it, every record acknowledged by all. */
    static KafkaProducer<byte[], byte[]> producer(Map<String, Object> client) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** The scenario's record sequence, from the start. */
    public static Generator generator(Scenario s) {
        return new Generator(s.keys(), s.valueBytes(), 42, 0);
    }

    /**
     * Another sequence of the scenario's kind of records, drawn from {@code seed}, whose {@code seq} fields count from
     * {@code firstSeq}: several inputs of one run (the merge's) whose records differ, and tell which input they are.
     */
    static Generator generator(Scenario s, long seed, int firstSeq) {
        return new Generator(s.keys(), s.valueBytes(), seed, firstSeq);
    }

    /**
     * Keys and values in production order: call {@link #nextKey()} then {@link #nextValue()} for each record.
     *
     * <p>Threading: one thread.
     */
    public static final class Generator {
        private final Random random;
        private final int keys;
        private final int size;
        private final int firstSeq;
        private int index;

        private Generator(int keys, int size, long seed, int firstSeq) {
            this.random = new Random(seed);
            this.keys = keys;
            this.size = size;
            this.firstSeq = firstSeq;
        }

        public byte[] nextKey() {
            return ("user-" + random.nextInt(keys)).getBytes(StandardCharsets.UTF_8);
        }

        public byte[] nextValue() {
            return nextValue(START_MILLIS + index * 7L + random.nextInt(2_000) - 1_000);
        }

        /** The next value with {@code ts} as its time (the merge's inputs carry their record timestamps in it). */
        byte[] nextValue(long ts) {
            return value(random, firstSeq + index++, ts, size);
        }
    }

    private static final byte[] SEQ_FIELD = ",\"seq\":".getBytes(StandardCharsets.US_ASCII);

    /**
     * The position of a value in the scenario's sequence (its {@code seq} field), read from the bytes without parsing
     * the JSON: what tells a copy apart from another record, whoever copied it.
     *
     * @throws IllegalArgumentException if the value is not one of {@link #value}'s log lines
     */
    public static int seqOf(byte[] value) {
        int at = indexOf(value, SEQ_FIELD);
        if (at < 0) {
            throw new IllegalArgumentException("not a benchmark log line (no seq field): "
                    + new String(value, 0, Math.min(value.length, 80), StandardCharsets.US_ASCII));
        }
        int seq = 0;
        for (int i = at + SEQ_FIELD.length; i < value.length && value[i] >= '0' && value[i] <= '9'; i++) {
            seq = seq * 10 + (value[i] - '0');
        }
        return seq;
    }

    private static int indexOf(byte[] bytes, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= bytes.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (bytes[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** One log line as JSON, exactly {@code size} bytes (the message is cut or extended to fit). */
    static byte[] value(Random random, int seq, long ts, int size) {
        String service = pick(random, SERVICES);
        String resource = pick(random, RESOURCES);
        int status = random.nextInt(20) == 0 ? 500 : random.nextInt(10) == 0 ? 404 : 200;
        StringBuilder b = new StringBuilder(size + 256);
        b.append("{\"ts\":").append(ts)
                .append(",\"time\":\"").append(Instant.ofEpochMilli(ts))
                .append("\",\"level\":\"").append(pick(random, LEVELS))
                .append("\",\"service\":\"").append(service)
                .append("\",\"host\":\"ip-10-").append(random.nextInt(4)).append('-').append(random.nextInt(16))
                .append('-').append(random.nextInt(64))
                .append("\",\"pod\":\"").append(service).append("-7d9f8c6b5-").append(hex(random, 5))
                .append("\",\"category\":\"").append(pick(random, CATEGORIES))
                .append("\",\"trace_id\":\"").append(hex(random, 32))
                .append("\",\"span_id\":\"").append(hex(random, 16))
                .append("\",\"user\":\"user-").append(random.nextInt(100_000))
                .append("\",\"client_ip\":\"").append(random.nextInt(224)).append('.').append(random.nextInt(256))
                .append('.').append(random.nextInt(256)).append('.').append(random.nextInt(256))
                .append("\",\"method\":\"").append(pick(random, METHODS))
                .append("\",\"path\":\"/api/v2/").append(resource).append('/').append(random.nextInt(50_000))
                .append("\",\"status\":").append(status)
                .append(",\"latency_ms\":").append(random.nextInt(random.nextInt(10) == 0 ? 5_000 : 300))
                .append(",\"bytes_out\":").append(random.nextInt(64 * 1024))
                .append(",\"user_agent\":\"").append(pick(random, AGENTS))
                .append("\",\"seq\":").append(seq)
                .append(",\"message\":\"");
        while (b.length() < size - 2) {
            b.append(message(random)).append(". ");
        }
        b.setLength(Math.max(0, size - 2));
        b.append("\"}");
        if (b.length() != size || !b.substring(0, size - 2).contains("\"message\":\"")) {
            throw new IllegalArgumentException("a value of " + size + " bytes cannot hold a log line's fields; use at "
                    + "least 700");
        }
        return b.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static String message(Random random) {
        return switch (random.nextInt(MESSAGES.length)) {
            case 0 -> format(MESSAGES[0], pick(random, REGIONS), random.nextInt(64), random.nextInt(100));
            case 1 -> format(MESSAGES[1], pick(random, SERVICES), random.nextInt(800), random.nextInt(40_000),
                    random.nextInt(3));
            case 2 -> format(MESSAGES[2], "user-" + random.nextInt(100_000), 1 + random.nextInt(5), hex(random, 8),
                    random.nextInt(400), random.nextInt(100));
            case 3 -> format(MESSAGES[3], pick(random, RESOURCES), 100 + random.nextInt(3_000),
                    random.nextInt(200_000), random.nextInt(500));
            case 4 -> format(MESSAGES[4], hex(random, 12), 300 + random.nextInt(3_300));
            case 5 -> format(MESSAGES[5], pick(random, SERVICES), random.nextInt(1_000), 1_000, random.nextInt(60));
            case 6 -> format(MESSAGES[6], hex(random, 16), random.nextInt(900), random.nextInt(900),
                    random.nextInt(100));
            case 7 -> format(MESSAGES[7], pick(random, RESOURCES) + "-v" + random.nextInt(4), random.nextInt(3),
                    random.nextInt(20), 5 * random.nextInt(21));
            case 8 -> format(MESSAGES[8], pick(random, SERVICES), random.nextInt(64), random.nextInt(32),
                    random.nextInt(4));
            default -> format(MESSAGES[9], hex(random, 16), random.nextInt(12), 100 << random.nextInt(6),
                    1 + random.nextInt(5));
        };
    }

    private static String format(String template, Object... args) {
        return String.format(Locale.ROOT, template, args);
    }

    private static String pick(Random random, String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String hex(Random random, int digits) {
        char[] c = new char[digits];
        for (int i = 0; i < digits; i++) {
            c[i] = Character.forDigit(random.nextInt(16), 16);
        }
        return new String(c);
    }
}
