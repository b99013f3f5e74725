package io.sluice.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.merge.order.EventTime;
import io.sluice.merge.order.EventTimeException;
import io.sluice.merge.order.MergeKey;
import io.sluice.merge.write.MergeHeaders;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Input topics on their clusters, as the merge tests write and read them. */
public record MergeInputs(List<String> names, List<KafkaCluster> clusters, List<String> topics) {

    /** Writes records with the given event times (CreateTime) to partition {@code partition} of input {@code i}. */
    public void produce(int i, int partition, long[] times) {
        produce(i, partition, times, 0);
    }

    /** As {@link #produce(int, int, long[])}, each value padded with {@code pad} more bytes. */
    public void produce(int i, int partition, long[] times, int pad) {
        byte[][] values = new byte[times.length][];
        String padding = pad == 0 ? "" : ",\"pad\":\"" + "x".repeat(pad) + "\"";
        for (int k = 0; k < times.length; k++) {
            values[k] = ("{\"at\":" + times[k] + padding + "}").getBytes(StandardCharsets.UTF_8);
        }
        produce(i, partition, times, values);
    }

    /** Writes records with the given timestamps (CreateTime) and values to partition {@code partition} of input i. */
    public void produce(int i, int partition, long[] timestamps, byte[][] values) {
        Map<String, Object> props = new HashMap<>(clusters.get(i).clientProperties(Listener.PLAINTEXT));
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int k = 0; k < timestamps.length; k++) {
                String text = names.get(i) + "-" + partition + "-" + k;
                producer.send(new ProducerRecord<>(topics.get(i), partition, timestamps[k],
                        text.getBytes(StandardCharsets.UTF_8), values[k]));
            }
        }
    }

    /** A merge of these inputs into {@code output} on {@code target}, with quick commits; open for more settings. */
    public MergeConfig.Builder merge(String name, KafkaCluster target, String output) {
        MergeConfig.Builder b = MergeConfig.builder().name(name)
                .targetProperties(target.clientProperties(Listener.PLAINTEXT)).outputTopic(output)
                .commitInterval(Duration.ofMillis(200)).untilEnd(true);
        for (int i = 0; i < names.size(); i++) {
            b.input(new MergeInput(names.get(i), clusters.get(i).clientProperties(Listener.PLAINTEXT), topics.get(i)));
        }
        return b;
    }

    /** Session timings for the owners group that keep the tests quick. */
    public static Map<String, Object> quickMember() {
        return Map.of("session.timeout.ms", 6_000, "heartbeat.interval.ms", 500);
    }

    /** Per partition, the merge of every input's records by (time, input, offset): what the output must hold. */
    public Map<Integer, List<String>> expected() {
        return expected(EventTime.timestamp());
    }

    /**
     * As {@link #expected()}, by the event time {@code orderBy} reads; records it finds none in are left out (they
     * are dead letters).
     */
    public Map<Integer, List<String>> expected(EventTime orderBy) {
        Map<Integer, List<MergeKey>> keys = new TreeMap<>();
        for (int i = 0; i < names.size(); i++) {
            for (ConsumerRecord<byte[], byte[]> r : read(clusters.get(i), topics.get(i))) {
                long time;
                try {
                    time = orderBy.of(r);
                } catch (EventTimeException e) {
                    continue;
                }
                keys.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(new MergeKey(time, i, r.offset()));
            }
        }
        Map<Integer, List<String>> expected = new TreeMap<>();
        keys.forEach((p, list) -> expected.put(p, list.stream().sorted(Comparator.naturalOrder())
                .map(k -> names.get(k.input()) + ":" + p + ":" + k.offset()).toList()));
        return expected;
    }

    /** Per output partition, where each record came from ({@link MergeHeaders#SOURCE}), in output order. */
    public static Map<Integer, List<String>> sources(KafkaCluster target, String output) {
        Map<Integer, List<String>> sources = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : read(target, output)) {
            Header h = r.headers().lastHeader(MergeHeaders.SOURCE);
            sources.computeIfAbsent(r.partition(), p -> new ArrayList<>())
                    .add(h == null ? "?" : new String(h.value(), StandardCharsets.US_ASCII));
        }
        return sources;
    }

    /** Per output partition, each record's key, value, headers and timestamp as text: "byte for byte". */
    public static Map<Integer, List<String>> contents(KafkaCluster target, String output) {
        Map<Integer, List<String>> contents = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : read(target, output)) {
            StringBuilder s = new StringBuilder(r.timestamp() + " " + text(r.key()) + " " + text(r.value()));
            for (Header h : r.headers()) {
                s.append(' ').append(h.key()).append('=').append(text(h.value()));
            }
            contents.computeIfAbsent(r.partition(), p -> new ArrayList<>()).add(s.toString());
        }
        return contents;
    }

    public static void assertMerged(Map<Integer, List<String>> expected, Map<Integer, List<String>> actual) {
        Map<Integer, List<String>> nonEmpty = new TreeMap<>(expected);
        nonEmpty.values().removeIf(List::isEmpty);
        assertEquals(nonEmpty.keySet(), actual.keySet(), "output partitions with records");
        nonEmpty.forEach((p, list) -> assertEquals(list, actual.get(p), "partition " + p
                + ": every input record once, by event time, ties by input then offset"));
    }

    private static List<ConsumerRecord<byte[], byte[]>> read(KafkaCluster cluster, String topic) {
        return TestRecords.readAll(cluster.clientProperties(Listener.PLAINTEXT), topic, Duration.ofSeconds(30));
    }

    private static String text(byte[] b) {
        return b == null ? "null" : new String(b, StandardCharsets.UTF_8);
    }
}
