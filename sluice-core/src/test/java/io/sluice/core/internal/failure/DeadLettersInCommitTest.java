package io.sluice.core.internal.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.core.commit.SourceGroup;
import io.sluice.core.commit.SourceGroupCommit;
import io.sluice.core.internal.consumer.SourceGroupView;
import io.sluice.core.wire.DeadLetterHeaders;
import io.sluice.local.kafka.KafkaCluster;
import io.sluice.local.kafka.Listener;
import io.sluice.testkit.Names;
import io.sluice.testkit.SharedKafka;
import io.sluice.testkit.kafka.TestRecords;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Dead letters in the source group's commit, against a real broker: a commit's letters become visible to a
 * read_committed reader with its offsets, and a member that lost the partition (a zombie, playing its frozen view of
 * the group) can commit neither.
 */
class DeadLettersInCommitTest {

    /** Dead letters' final commits retry while the brokers are away; none are away here. */
    private static final Duration RETRY_FOR = Duration.ofSeconds(15);

    private final KafkaCluster kafka = SharedKafka.cluster();

    @Test
    void aCommitsLettersAreVisibleWithItsOffsetsAndAZombieCommitsNeither() throws Exception {
        Setup s = Setup.create(kafka, "dlq-commit");
        PendingDeadLetters pending = new PendingDeadLetters(s.dlq(), "g", topic -> null);
        try (KafkaConsumer<byte[], byte[]> member = member(s.group(), s.topic())) {
            SourceGroupView view = new SourceGroupView(member, kafka.admin(), s.group());
            DeadLettersInCommit commits =
                    new DeadLettersInCommit(new SourceGroupCommit(view), view, pending, s.client(), null, RETRY_FOR);
            try {
                pending.deadLetter(record(s.topic(), 2), new IllegalArgumentException("bad"), 1);
                pending.deadLetter(record(s.topic(), 5), new IllegalArgumentException("bad"), 1);

                commits.commitNow(Map.of(s.tp(), new OffsetAndMetadata(4)), Duration.ofSeconds(10));

                // the transaction's markers are written just after its commit returns: visible moments later
                assertEquals(List.of("2"), awaitLetters(s.client(), s.dlq(), 1),
                        "the letter below the committed offset");
                assertEquals(4, committed(s.group(), s.tp()));
                assertEquals(1, pending.size(), "the letter of offset 5 waits for a commit beyond it");

                // the member as it saw the group before it stopped polling, and another member takes the partition
                ConsumerGroupMetadata frozen = member.groupMetadata();
                try (KafkaConsumer<byte[], byte[]> next = member(s.group(), s.topic())) {
                    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (!next.assignment().contains(s.tp())) {
                        assertTrue(System.nanoTime() < deadline, "the next member was not assigned " + s.tp());
                        next.poll(Duration.ofMillis(100));
                    }
                    DeadLettersInCommit zombie = new DeadLettersInCommit(new SourceGroupCommit(view),
                            new FrozenView(view, frozen), pending, s.client(), null, RETRY_FOR);
                    try {
                        KafkaException refused = assertThrows(KafkaException.class,
                                () -> zombie.commitNow(Map.of(s.tp(), new OffsetAndMetadata(6)),
                                        Duration.ofSeconds(10)));
                        assertTrue(zombie.refusedForCertain(refused), "refused for certain: " + refused);
                        assertTrue(!String.valueOf(refused.getMessage()).contains("is not in s.group()"),
                                "refused by the s.group() coordinator, not before the transaction: " + refused);
                    } finally {
                        zombie.close();
                    }
                }
                assertEquals(List.of("2"), sourceOffsets(s.client(), s.dlq()),
                        "the zombie's letter stays invisible");
                assertEquals(4, committed(s.group(), s.tp()), "and so does its offset");
                assertEquals(1, pending.size(), "a commit that did not happen puts its letter back");
            } finally {
                commits.close();
            }
        }
    }

    /**
     * A dynamic member that died mid-commit (its transaction holds a letter and the offsets, never committed): the next
     * owner's claim waits until the coordinator aborts that transaction, then reads the offsets before it; the letter
     * stays invisible. Prints the wait, which docs/exactly-once.md quotes.
     */
    @Test
    void theNextOwnerWaitsOutATransactionADeadMemberLeftOpen() throws Exception {
        Setup s = Setup.create(kafka, "dlq-open");
        try (KafkaConsumer<byte[], byte[]> dead = member(s.group(), s.topic())) {
            Map<String, Object> props = new HashMap<>(s.client());
            props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, Names.unique("dead-member"));
            props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                    (int) DeadLettersInCommit.TRANSACTION_TIMEOUT.toMillis());
            KafkaProducer<byte[], byte[]> producer =
                    new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(s.dlq(), "letter".getBytes(StandardCharsets.UTF_8))).get();
            producer.sendOffsetsToTransaction(Map.of(s.tp(), new OffsetAndMetadata(7)), dead.groupMetadata());
            producer.flush();
            producer.close(Duration.ZERO); // dies: nothing ends the transaction but its timeout
        }
        long died = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> next = member(s.group(), s.topic())) {
            SourceGroupView view = new SourceGroupView(next, kafka.admin(), s.group());
            DeadLettersInCommit commits = new DeadLettersInCommit(new SourceGroupCommit(view), view,
                    new PendingDeadLetters(s.dlq(), "g", topic -> null), s.client(), null, RETRY_FOR);
            try {
                Map<TopicPartition, OffsetAndMetadata> claimed =
                        commits.claim(Set.of(s.tp()), Duration.ofSeconds(5));
                long waited = (System.nanoTime() - died) / 1_000_000;
                System.out.println("[dead-letters] the next owner's claim waited " + waited
                        + " ms for a transaction a dead member left open");
                assertEquals(Map.of(), claimed, "the dead member's offsets were aborted with its transaction");
                assertTrue(waited < DeadLettersInCommit.OPEN_TRANSACTION_WAIT.toMillis(), "waited " + waited + " ms");
            } finally {
                commits.close();
            }
        }
        assertEquals(List.of(), sourceOffsets(s.client(), s.dlq()), "the dead member's letter is never visible");
    }

    /** A group member that owns the topic's partition; it gives it up 8 s after its last poll. */
    private KafkaConsumer<byte[], byte[]> member(String group, String topic) {
        Map<String, Object> props = new HashMap<>(kafka.clientProperties(Listener.PLAINTEXT));
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 8_000);
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 500);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(100));
        }
        return consumer;
    }

    private long committed(String group, TopicPartition tp) throws Exception {
        try (var admin = org.apache.kafka.clients.admin.Admin.create(kafka.clientProperties(Listener.PLAINTEXT))) {
            return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get().get(tp).offset();
        }
    }

    /** The source offsets of the dead letters, once there are {@code count} (or after 10 s). */
    private static List<String> awaitLetters(Map<String, Object> client, String dlq, int count) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        List<String> letters = sourceOffsets(client, dlq);
        while (letters.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(100);
            letters = sourceOffsets(client, dlq);
        }
        return letters;
    }

    private static List<String> sourceOffsets(Map<String, Object> client, String dlq) {
        return TestRecords.readAll(client, dlq, Duration.ofSeconds(10)).stream()
                .map(r -> new String(r.headers().lastHeader(DeadLetterHeaders.SOURCE_OFFSET).value(),
                        StandardCharsets.UTF_8))
                .toList();
    }

    private static ConsumerRecord<byte[], byte[]> record(String topic, long offset) {
        return new ConsumerRecord<>(topic, 0, offset, null, ("v" + offset).getBytes(StandardCharsets.UTF_8));
    }

    /** A topic of one partition, its dead-letter topic, a group, named after the test, and the client settings. */
    private record Setup(String topic, String dlq, String group, TopicPartition tp, Map<String, Object> client) {
        static Setup create(KafkaCluster kafka, String name) throws Exception {
            String topic = Names.unique(name);
            kafka.createTopic(topic, 1);
            kafka.createTopic(topic + "-dlq", 1);
            return new Setup(topic, topic + "-dlq", Names.unique(name + "-group"), new TopicPartition(topic, 0),
                    kafka.clientProperties(Listener.PLAINTEXT));
        }
    }

    /** The group as a member saw it before it froze: its generation then, which the coordinator no longer has. */
    private record FrozenView(SourceGroup live, ConsumerGroupMetadata frozen) implements SourceGroup {
        @Override
        public String groupId() {
            return live.groupId();
        }

        @Override
        public ConsumerGroupMetadata groupMetadata() {
            return frozen;
        }

        @Override
        public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions, Duration timeout) {
            return live.committed(partitions, timeout);
        }

        @Override
        public KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedAsync(Set<TopicPartition> partitions) {
            return live.committedAsync(partitions);
        }

        @Override
        public void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
            live.commitAsync(offsets, callback);
        }

        @Override
        public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            live.commitSync(offsets, timeout);
        }
    }
}
