package io.sluice.storage.sink;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Test data for archives: JSON values {@code {"category":"click|view|buy","i":<n>}} under 40 keys. For tests. */
public final class CategoryRecords {

    private static final String[] CATEGORIES = {"click", "view", "buy"};

    private CategoryRecords() {
    }

    /** Produces {@code count} records, acknowledged, and returns each partition's end offset (the topic was empty). */
    public static Map<Integer, Long> produce(KafkaCluster kafka, String topic, int count) throws Exception {
        return produce(kafka, topic, count, 0);
    }

    /**
     * As {@link #produce(KafkaCluster, String, int)}, with every {@code rejectEvery}-th record (none when 0) a value
     * without a category, which an archive whose path template needs {@code value.category} rejects: {@code count /
     * rejectEvery} records for the dead-letter topic.
     */
    public static Map<Integer, Long> produce(KafkaCluster kafka, String topic, int count, int rejectEvery)
            throws Exception {
        return produce(kafka, topic, count, rejectEvery, 0);
    }

    /**
     * As {@link #produce(KafkaCluster, String, int, int)}, with every {@code lateEvery}-th record (none when 0) late:
     * its timestamp one to 48 hours back (seeded), so that an archive by hour opens a folder for it beside the
     * current hour's.
     */
    public static Map<Integer, Long> produce(KafkaCluster kafka, String topic, int count, int rejectEvery,
            int lateEvery) throws Exception {
        return produce(kafka, topic, count, rejectEvery, lateEvery, 0);
    }

    /**
     * As {@link #produce(KafkaCluster, String, int, int, int)}, each value carrying {@code padding} bytes of text in a
     * field {@code pad}, so that a few records make a directory large.
     */
    public static Map<Integer, Long> produce(KafkaCluster kafka, String topic, int count, int rejectEvery,
            int lateEvery, int padding) throws Exception {
        String pad = padding == 0 ? "" : ",\"pad\":\"" + "x".repeat(padding) + "\"";
        long hour = 3_600_000L;
        Random random = new Random(lateEvery);
        long now = System.currentTimeMillis();
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put("max.in.flight.requests.per.connection", 1);
        props.put("linger.ms", 5);
        List<Future<RecordMetadata>> sent = new ArrayList<>(count);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                boolean rejected = rejectEvery > 0 && i % rejectEvery == rejectEvery - 1;
                boolean late = lateEvery > 0 && i % lateEvery == lateEvery - 1;
                Long timestamp = late ? now - hour - random.nextInt(47 * (int) hour) : null;
                sent.add(producer.send(new ProducerRecord<>(topic, null, timestamp, "k" + (i % 40), rejected
                        ? "{\"i\":" + i + pad + "}" : "{\"category\":\"" + CATEGORIES[i % 3] + "\",\"i\":" + i + pad + "}")));
            }
            producer.flush();
        }
        Map<Integer, Long> ends = new HashMap<>();
        for (Future<RecordMetadata> f : sent) {
            RecordMetadata m = f.get();
            ends.merge(m.partition(), m.offset() + 1, Math::max);
        }
        return ends;
    }
}
