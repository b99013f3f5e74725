package io.sluice.bench;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes a scenario's records once: log-like JSON values of about the requested size, with repetitive fields as real
 * logs have (random bytes would not compress, which misleads any codec-related measurement), keyed over the
 * scenario's key space.
 */
final class BenchData {

    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "WARN", "DEBUG", "ERROR"};
    private static final String[] SERVICES = {"checkout", "search", "auth", "catalog", "payments", "ads"};
    private static final String[] CATEGORIES = {"click", "view", "purchase", "signup", "error", "impression"};

    private BenchData() {
    }

    static void produce(Map<String, Object> client, String topic, Scenario s) {
        Map<String, Object> props = new HashMap<>(client);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 10);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L * 1024 * 1024);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        Random random = new Random(42);
        long start = 1_795_000_000_000L;
        try (var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < s.records(); i++) {
                byte[] key = ("user-" + random.nextInt(s.keys())).getBytes(StandardCharsets.UTF_8);
                byte[] value = value(random, i, start + i * 7L, s.valueBytes());
                producer.send(new ProducerRecord<>(topic, key, value));
            }
            producer.flush();
        }
    }

    static byte[] value(Random random, int i, long timestamp, int size) {
        StringBuilder b = new StringBuilder(size + 64);
        b.append("{\"ts\":").append(timestamp)
                .append(",\"level\":\"").append(LEVELS[random.nextInt(LEVELS.length)])
                .append("\",\"service\":\"").append(SERVICES[random.nextInt(SERVICES.length)])
                .append("\",\"category\":\"").append(CATEGORIES[random.nextInt(CATEGORIES.length)])
                .append("\",\"request_id\":\"").append(Long.toHexString(random.nextLong()))
                .append("\",\"user\":\"user-").append(random.nextInt(100_000))
                .append("\",\"path\":\"/api/v2/items/").append(random.nextInt(5_000))
                .append("\",\"status\":").append(random.nextInt(10) == 0 ? 500 : 200)
                .append(",\"latency_ms\":").append(random.nextInt(900))
                .append(",\"seq\":").append(i)
                .append(",\"message\":\"");
        while (b.length() < size - 2) {
            b.append("request handled by worker pool with cache hit ratio nominal ");
        }
        b.setLength(Math.max(b.length(), size - 2));
        b.setLength(size - 2);
        b.append("\"}");
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }
}
