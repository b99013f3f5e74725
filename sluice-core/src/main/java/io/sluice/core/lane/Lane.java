package io.sluice.core.lane;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A queue of records processed strictly one after another, in the order they were added. A lane is never pinned
 * to a thread: whenever it has records and no worker, it is handed to the {@link WorkerPool}, and any idle worker
 * takes it, so one busy lane never leaves other lanes waiting behind it.
 *
 * <p>Threading: {@link #add} is called by the consumer thread only; {@link #run} by one worker at a time, which the
 * {@code scheduled} flag guarantees: it is set by whoever submits the lane and cleared by the worker when it leaves.
 */
public final class Lane {

    /** Records a worker takes in one turn before it lets other lanes have the thread. */
    static final int TURN = 64;

    private final PartitionWork partition;
    private final WorkerPool pool;
    private final ConcurrentLinkedQueue<ConsumerRecord<byte[], byte[]>> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean halted;

    public Lane(PartitionWork partition, WorkerPool pool) {
        this.partition = partition;
        this.pool = pool;
    }

    /** Queues a record and makes sure a worker will get to it. */
    public void add(ConsumerRecord<byte[], byte[]> record) {
        queue.offer(record);
        if (scheduled.compareAndSet(false, true)) {
            pool.submit(this);
        }
    }

    /** One turn of a worker: up to {@link #TURN} records, then the completions, then yield or reschedule. */
    void run(long[] offsets) {
        int count = 0;
        long bytes = 0;
        try {
            ConsumerRecord<byte[], byte[]> record;
            while (count < TURN && !halted && partition.isOpen() && (record = queue.poll()) != null) {
                if (!partition.process(record)) {
                    // the engine stops because of this record: leave it and everything behind it pending
                    halted = true;
                    break;
                }
                offsets[count++] = record.offset();
                bytes += RecordSize.of(record);
            }
        } finally {
            if (count > 0) {
                partition.completed(offsets, count, bytes);
            }
            if (!partition.isOpen() || halted) {
                queue.clear();
            }
            scheduled.set(false);
            // a record added after the loop's last poll but before the flag was cleared must not be stranded
            if (!queue.isEmpty() && !halted && partition.isOpen() && scheduled.compareAndSet(false, true)) {
                pool.submit(this);
            }
        }
    }

    int queued() {
        return queue.size();
    }
}
