package io.sluice.storage.sink;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put("max.in.flight.requests.per.connection", 1);
        props.put("linger.ms", 5);
        List<Future<RecordMetadata>> sent = new ArrayList<>(count);
        try (var producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                sent.add(producer.send(new ProducerRecord<>(topic, "k" + (i % 40),
                        "{\"category\":\"" + CATEGORIES[i % 3] + "\",\"i\":" + i + "}")));
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
