package io.sluice.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A sink that writes nothing and says, per partition and in order, what the engine asked of it ("write 4",
 * "committed 5 files-5"). Its checkpoint covers every record written, with the data "files-" and the offset, unless
 * the test sets another offset. Every call must come on a worker of the pool named {@code workerPrefix}, that is, in
 * a lane; a call from elsewhere is noted in {@link #callsOutsideLanes}.
 *
 * <p>Threading: sink calls on workers (one at a time per partition); the test thread reads the events.
 */
final class RecordingSink implements Sink {

    private final String workerPrefix;
    private final Map<TopicPartition, BlockingQueue<String>> events = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> writtenUpTo = new ConcurrentHashMap<>();
    final List<String> callsOutsideLanes = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch writeGate = new CountDownLatch(0);
    private volatile Long checkpointOffset;

    RecordingSink(String workerPrefix) {
        this.workerPrefix = workerPrefix;
    }

    /** Makes writes wait, after saying so, until {@code gate} opens. */
    void holdWritesUntil(CountDownLatch gate) {
        writeGate = gate;
    }

    private volatile RuntimeException checkpointFailure;

    /** Makes every checkpoint from now on throw {@code failure} (a mirror's copies the target did not take). */
    void failCheckpoints(RuntimeException failure) {
        checkpointFailure = failure;
    }

    private volatile long rejectFrom = Long.MAX_VALUE;

    /** Makes the writes of records from {@code offset} on fail as records the sink can never take. */
    void rejectFrom(long offset) {
        rejectFrom = offset;
    }

    /** Makes every checkpoint claim {@code offset}, whatever was written. */
    void checkpointAt(long offset) {
        checkpointOffset = offset;
    }

    /** The partition's next event, waiting for it (a test that passes never waits long). */
    String next(TopicPartition partition) throws InterruptedException {
        String event = queue(partition).poll(10, TimeUnit.SECONDS);
        assertNotNull(event, "no further sink call for " + partition);
        return event;
    }

    /** The partition's next {@code count} events, waiting for each. */
    List<String> next(TopicPartition partition, int count) throws InterruptedException {
        List<String> taken = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(next(partition));
        }
        return taken;
    }

    /** The partition's events so far that the test has not taken. */
    List<String> pending(TopicPartition partition) {
        return List.copyOf(queue(partition));
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData) {
        writtenUpTo.put(partition, committedOffset);
        event(partition, "open " + committedOffset + " " + committedData.orElse("-"));
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws InterruptedException, RecordRejectedException {
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        event(partition, "write " + record.offset());
        writeGate.await();
        if (record.offset() >= rejectFrom) {
            throw new RecordRejectedException("the test's sink takes no record from offset " + rejectFrom);
        }
        writtenUpTo.put(partition, record.offset() + 1);
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) {
        RuntimeException failure = checkpointFailure;
        if (failure != null) {
            event(partition, "checkpoint failed");
            throw failure;
        }
        Long forced = checkpointOffset;
        long offset = forced != null ? forced : writtenUpTo.get(partition);
        event(partition, "checkpoint " + offset + (last ? " last" : ""));
        return new SinkCheckpoint(offset, "files-" + offset);
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) {
        event(partition, "committed " + checkpoint.offset() + " " + checkpoint.data());
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) {
        event(partition, "not committed " + checkpoint.offset() + (certain ? " certainly" : " perhaps"));
    }

    @Override
    public void close(TopicPartition partition, boolean lost) {
        event(partition, lost ? "close lost" : "close revoked");
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        return 0;
    }

    private void event(TopicPartition partition, String event) {
        if (!Thread.currentThread().getName().startsWith(workerPrefix)) {
            callsOutsideLanes.add(event + " on " + Thread.currentThread().getName());
        }
        queue(partition).add(event);
    }

    private BlockingQueue<String> queue(TopicPartition partition) {
        return events.computeIfAbsent(partition, tp -> new LinkedBlockingQueue<>());
    }
}
