package io.sluice.audit;

import io.sluice.core.wire.DeadLetterHeaders;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The records of the audited ranges that the engine dead-lettered, found through the headers it adds
 * ({@link DeadLetterHeaders}): source topic, partition and offset, and the error. A dead-letter topic shared by
 * several topics is fine: other sources are skipped; so is one shared by several archives of one topic: a letter that
 * names another consumer group than the audited archive's is that archive's (counting it hid a record missing from
 * this archive's files: a new user's run). A letter without a group (written before letters named it) counts. A record
 * dead-lettered twice (a retry after a crash) counts once. A letter that names another ID of the topic is of an earlier
 * topic of the same name (deleted and created again): its offsets are the old topic's, and counting it would excuse
 * a record of the new topic missing at the same offset. A letter without an ID (written before letters named it)
 * counts.
 *
 * <p>Threading: {@link #run} on one thread; its result is handed over when it returns.
 */
final class DeadLetterScan {

    /** One partition's dead letters: every offset, and the lowest few with their reasons. */
    static final class PartitionDeadLetters {
        final OffsetSet offsets = new OffsetSet();
        final TreeMap<Long, AuditReport.DeadLetter> listed = new TreeMap<>();
    }

    final Map<Integer, PartitionDeadLetters> partitions = new HashMap<>();
    /** Dead letters without readable source headers: not written by Sluice's engine. */
    long withoutSource;
    /** Dead letters of another archive: they name another consumer group. */
    long otherGroups;
    /** Dead letters of an earlier topic of the same name: they name another topic ID. */
    long earlierTopic;
    /**
     * The audited ranges' offsets that other groups dead-lettered, per partition, and those groups: an archive whose
     * group was renamed wrote its earlier letters under the old name, and its report says so beside what is missing.
     */
    final Map<Integer, OffsetSet> otherGroupOffsets = new HashMap<>();
    final java.util.SortedSet<String> otherGroupNames = new java.util.TreeSet<>();

    private DeadLetterScan() {
    }

    static DeadLetterScan run(AuditConfig config, TopicSnapshot snapshot, SortedMap<Integer, KafkaPartition> plan)
            throws AuditException {
        DeadLetterScan scan = new DeadLetterScan();
        if (config.deadLetterTopic().isEmpty()) {
            return scan;
        }
        String dlq = config.deadLetterTopic().get();
        Map<TopicPartition, CommittedReader.Range> ranges = new HashMap<>();
        snapshot.deadLetterPartitions.forEach((p, b) -> ranges.put(new TopicPartition(dlq, p),
                new CommittedReader.Range(b.logStart(), b.lastStable())));
        new CommittedReader(config.kafkaProperties(), config.timeout()).read(ranges, new CommittedReader.Visitor() {
            @Override
            public void record(ConsumerRecord<Void, Void> record) {
                scan.add(record, config.topic(), snapshot.topicId, config.groupId().orElse(null), plan,
                        config.listLimit());
            }

            @Override
            public void logStartMoved(TopicPartition partition, long logStart) {
                // dead letters removed by retention can no longer be told apart: their records count as expected
            }
        });
        return scan;
    }

    private void add(ConsumerRecord<Void, Void> record, String topic, String topicId, String group,
            SortedMap<Integer, KafkaPartition> plan, int limit) {
        Headers headers = record.headers();
        String letterGroup = text(headers, DeadLetterHeaders.SOURCE_GROUP);
        boolean another = group != null && letterGroup != null && !letterGroup.equals(group);
        if (another) {
            otherGroups++;
        }
        String sourceTopic = text(headers, DeadLetterHeaders.SOURCE_TOPIC);
        long partition;
        long offset;
        try {
            partition = Long.parseLong(text(headers, DeadLetterHeaders.SOURCE_PARTITION));
            offset = Long.parseLong(text(headers, DeadLetterHeaders.SOURCE_OFFSET));
        } catch (NumberFormatException e) { // also a missing header: parsing null fails the same way
            withoutSource++;
            return;
        }
        if (sourceTopic == null || offset < 0) {
            withoutSource++;
            return;
        }
        String letterTopicId = text(headers, DeadLetterHeaders.SOURCE_TOPIC_ID);
        if (sourceTopic.equals(topic) && topicId != null && letterTopicId != null && !letterTopicId.equals(topicId)) {
            earlierTopic++;
            return;
        }
        KafkaPartition range = sourceTopic.equals(topic) ? plan.get((int) partition) : null;
        if (range == null || offset < range.from || offset >= range.until) {
            return;
        }
        if (another) {
            otherGroupOffsets.computeIfAbsent((int) partition, p -> new OffsetSet()).add(offset);
            otherGroupNames.add(letterGroup);
            return;
        }
        PartitionDeadLetters letters = partitions.computeIfAbsent((int) partition, p -> new PartitionDeadLetters());
        if (!letters.offsets.add(offset)) {
            return;
        }
        int attempts;
        try {
            attempts = Integer.parseInt(text(headers, DeadLetterHeaders.ATTEMPTS));
        } catch (NumberFormatException e) {
            attempts = 0;
        }
        letters.listed.put(offset, new AuditReport.DeadLetter(offset, text(headers, DeadLetterHeaders.ERROR_CLASS),
                text(headers, DeadLetterHeaders.ERROR_MESSAGE), attempts,
                record.topic() + "-" + record.partition() + "@" + record.offset()));
        if (letters.listed.size() > limit) {
            letters.listed.pollLastEntry();
        }
    }

    private static String text(Headers headers, String key) {
        Header h = headers.lastHeader(key);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
