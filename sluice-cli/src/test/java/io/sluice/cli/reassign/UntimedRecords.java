package io.sluice.cli.reassign;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Writes records that carry no timestamp (-1) into a partition, as clients before Kafka 0.10 did: the Java producer
 * always stamps its records (and refuses a negative timestamp), so this sends one Produce request (v12, message
 * format v2, acks=all) over a plain socket to the partition's leader. Kafka 4.3.1 accepts such records: a
 * CreateTime topic checks only the timestamps records have.
 *
 * <p>Threading: stateless.
 */
final class UntimedRecords {

    private static final short PRODUCE_VERSION = 12;

    private UntimedRecords() {
    }

    static void write(Admin admin, String topic, int partition, int count, int valueBytes) throws Exception {
        TopicPartitionInfo info = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic).partitions().get(partition);
        Node leader = info.leader();
        SimpleRecord[] records = new SimpleRecord[count];
        byte[] value = "u".repeat(valueBytes).getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < count; i++) {
            records[i] = new SimpleRecord(RecordBatch.NO_TIMESTAMP, ("untimed-" + i).getBytes(StandardCharsets.UTF_8),
                    value);
        }
        MemoryRecords batch = MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V2, 0L, Compression.NONE,
                TimestampType.CREATE_TIME, records);
        ProduceRequestData data = new ProduceRequestData().setAcks((short) -1).setTimeoutMs(30_000)
                .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(
                        new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
                                new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(batch))))
                        .iterator()));
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "untimed-records", 1);
        ByteBuffer request = new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION)
                .serializeWithHeader(header);
        ProduceResponse response;
        try (Socket socket = new Socket(leader.host(), leader.port())) {
            socket.setSoTimeout(30_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            byte[] bytes = new byte[request.remaining()];
            request.get(bytes);
            out.writeInt(bytes.length);
            out.write(bytes);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[in.readInt()];
            in.readFully(answer);
            response = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(answer), header);
        }
        for (ProduceResponseData.TopicProduceResponse t : response.data().responses()) {
            for (ProduceResponseData.PartitionProduceResponse p : t.partitionResponses()) {
                if (p.errorCode() != 0) {
                    throw new IOException("the broker refused records without timestamps: error " + p.errorCode()
                            + " " + p.errorMessage());
                }
            }
        }
    }
}
