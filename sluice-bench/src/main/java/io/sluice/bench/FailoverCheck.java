package io.sluice.bench;

import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The translation error of a mirror, measured as a failover would feel it: before the copy, a consumer group of the
 * source commits an offset in the middle of each partition; after it, the offset the mirror wrote for that group in
 * the target is compared with where the first record the group had not consumed lies there. The difference, in
 * records a read_committed reader sees, is what a consumer failing over would read again (positive) or skip
 * (negative); 0 is exact. The target's records are located by the {@code seq} each value carries, so the check needs
 * nothing of the mirror's own (MirrorMaker 2 adds no provenance).
 *
 * <p>Threading: one thread; {@link #seen} from the {@link TargetWatch}'s reading, on the same thread.
 */
final class FailoverCheck {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final String group;
    private final String targetTopic;
    /** Per source partition: the seq of the first record the group has not consumed. */
    private final int[] nextSeq;
    /** Per target partition: every offset a read_committed reader saw, in order. */
    private final long[][] offsets;
    private final int[] counts;
    /** Per target partition: where the first copy of {@link #nextSeq} lies; -1 until seen. */
    private final long[] nextAt;

    private FailoverCheck(String group, String targetTopic, int[] nextSeq) {
        this.group = group;
        this.targetTopic = targetTopic;
        this.nextSeq = nextSeq;
        this.offsets = new long[nextSeq.length][1024];
        this.counts = new int[nextSeq.length];
        this.nextAt = new long[nextSeq.length];
        Arrays.fill(nextAt, -1);
    }

    /**
     * Commits {@code group} on the source at about 37% of each partition (an offset no batch boundary favours), and
     * reads which record lies there.
     */
    static FailoverCheck commitMidway(KafkaCluster source, String topic, int partitions, String group,
            String targetTopic) throws Exception {
        Map<String, Object> props = new HashMap<>(source.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        int[] nextSeq = new int[partitions];
        Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> tps = java.util.stream.IntStream.range(0, partitions)
                    .mapToObj(p -> new TopicPartition(topic, p)).toList();
            Map<TopicPartition, Long> ends = reader.endOffsets(tps);
            reader.assign(tps);
            for (TopicPartition tp : tps) {
                long offset = ends.get(tp) * 37 / 100 + tp.partition();
                reader.seek(tp, offset);
                committed.put(tp, new OffsetAndMetadata(offset));
            }
            Map<Integer, ConsumerRecord<byte[], byte[]>> at = new HashMap<>();
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (at.size() < partitions && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                    at.putIfAbsent(r.partition(), r);
                }
            }
            for (TopicPartition tp : tps) {
                ConsumerRecord<byte[], byte[]> first = at.get(tp.partition());
                long offset = committed.get(tp).offset();
                if (first == null || first.offset() != offset) {
                    throw new IllegalStateException("no record at offset " + offset + " of " + tp);
                }
                nextSeq[tp.partition()] = BenchData.seqOf(first.value());
            }
        }
        source.admin().alterConsumerGroupOffsets(group, committed).all().get(30, TimeUnit.SECONDS);
        return new FailoverCheck(group, targetTopic, nextSeq);
    }

    /** A record of the target as the watch read it. */
    void seen(ConsumerRecord<byte[], byte[]> r) {
        int p = r.partition();
        if (p >= counts.length) {
            return;
        }
        if (counts[p] == offsets[p].length) {
            offsets[p] = Arrays.copyOf(offsets[p], counts[p] * 2);
        }
        offsets[p][counts[p]++] = r.offset();
        if (nextAt[p] < 0 && BenchData.seqOf(r.value()) == nextSeq[p]) {
            nextAt[p] = r.offset();
        }
    }

    /**
     * After the copy, while the mirror still runs: waits until it wrote the group's offsets in the target for every
     * partition and they stayed put for {@code settle} (a mirror that syncs periodically may still move them).
     *
     * @return the target group's offset per partition
     */
    Map<Integer, Long> awaitTargetOffsets(KafkaCluster target, Duration settle) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        Map<Integer, Long> last = Map.of();
        long stableSince = System.nanoTime();
        while (true) {
            Map<Integer, Long> now = target.admin().listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS).entrySet().stream()
                    .filter(e -> e.getKey().topic().equals(targetTopic) && e.getValue() != null)
                    .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
            if (!now.equals(last)) {
                last = now;
                stableSince = System.nanoTime();
            }
            if (now.size() == counts.length && System.nanoTime() - stableSince >= settle.toNanos()) {
                return now;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the mirror wrote no offsets of group " + group + " for every "
                        + "partition of " + targetTopic + " within " + WAIT + ": " + now);
            }
            Thread.sleep(200);
        }
    }

    /**
     * Once the watch read the whole target: the records, summed over the partitions, that a consumer failing over to
     * {@code targetOffsets} would read again (negative: skip).
     */
    long rereadOnFailover(Map<Integer, Long> targetOffsets) {
        long reread = 0;
        for (int p = 0; p < counts.length; p++) {
            if (nextAt[p] < 0) {
                throw new IllegalStateException("partition " + p + " of " + targetTopic + " holds no copy of seq "
                        + nextSeq[p]);
            }
            reread += recordsBetween(p, targetOffsets.get(p), nextAt[p]);
        }
        return reread;
    }

    /** Records in partition {@code p} from offset {@code from} up to {@code to}; negative when {@code from} is later. */
    private long recordsBetween(int p, long from, long to) {
        int a = indexOf(p, from);
        int b = indexOf(p, to);
        return b - a;
    }

    /** How many records of partition {@code p} lie before {@code offset}. */
    private int indexOf(int p, long offset) {
        int i = Arrays.binarySearch(offsets[p], 0, counts[p], offset);
        return i >= 0 ? i : -i - 1;
    }
}
