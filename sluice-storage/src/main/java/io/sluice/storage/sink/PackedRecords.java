package io.sluice.storage.sink;

import io.sluice.storage.codec.ZstdBlocks;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;

/**
 * One directory's held records, packed: each record serialized into a buffer (its offset, timestamp and type, key,
 * value and headers: everything a writer reads), and every {@value #CHUNK} bytes of them compressed with zstd at level
 * 1 into a chunk. Log lines held this way take a fifth to a third of their size, where the records themselves took
 * their size plus about 160 bytes of objects each; so the memory that holds a roll's worth of a scattered layout holds
 * three to five times the records, and each directory's file is as much larger (issue 17).
 *
 * <p>Threading: one thread at a time (the partition's lane).
 */
final class PackedRecords {

    /** Serialized bytes compressed together: small enough that a directory's open tail costs little. */
    static final int CHUNK = 16 << 10;
    /** What a chunk costs beside its bytes (the array and its list slot), and a directory beside its chunks. */
    private static final int PER_CHUNK = 48;
    private static final int FIXED = 128;

    private final List<byte[]> chunks = new ArrayList<>();
    private int[] chunkSizes = new int[4];
    /** Grown by half as needed, up to a chunk and the record that fills it: a directory of a few records holds few. */
    private byte[] tail = new byte[512];
    private int tailLength;
    private long firstOffset = -1;
    private int records;
    private long rawBytes;
    private long compressedBytes;

    /** The serialized size of {@code record}: what it adds to a directory's raw bytes. */
    static int rawSize(ConsumerRecord<byte[], byte[]> record) {
        int size = 8 + 8 + 1 + 4 + length(record.key()) + 4 + length(record.value()) + 4;
        for (Header h : record.headers()) {
            size += 4 + h.key().getBytes(StandardCharsets.UTF_8).length + 4 + length(h.value());
        }
        return size;
    }

    /** Adds {@code record}, whose {@link #rawSize} is {@code size} (the caller has it already). */
    void add(ConsumerRecord<byte[], byte[]> record, int size) {
        if (tailLength + size > tail.length) {
            tail = Arrays.copyOf(tail, Math.max(tailLength + size, Math.min(tail.length * 3 / 2, CHUNK + size)));
        }
        ByteBuffer out = ByteBuffer.wrap(tail, tailLength, size);
        out.putLong(record.offset());
        out.putLong(record.timestamp());
        out.put((byte) record.timestampType().id);
        bytes(out, record.key());
        bytes(out, record.value());
        int headers = 0;
        for (Header ignored : record.headers()) {
            headers++;
        }
        out.putInt(headers);
        for (Header h : record.headers()) {
            bytes(out, h.key().getBytes(StandardCharsets.UTF_8));
            bytes(out, h.value());
        }
        tailLength += size;
        rawBytes += size;
        records++;
        if (firstOffset < 0) {
            firstOffset = record.offset();
        }
        if (tailLength >= CHUNK) {
            compressTail();
        }
    }

    long firstOffset() {
        return firstOffset;
    }

    int records() {
        return records;
    }

    /** The records' serialized size: what stands for their file's size before it is written. */
    long rawBytes() {
        return rawBytes;
    }

    /** The heap held: compressed chunks, the tail's buffer and a little for the objects. */
    long heapBytes() {
        return FIXED + tail.length + compressedBytes + (long) PER_CHUNK * chunks.size();
    }

    /** The records, in the order they were added, rebuilt for {@code partition} as the consumer gave them. */
    Iterator<ConsumerRecord<byte[], byte[]>> records(TopicPartition partition) {
        return new Iterator<>() {
            private int chunk;
            private ByteBuffer in = nextBuffer();

            private ByteBuffer nextBuffer() {
                if (chunk < chunks.size()) {
                    int rawLength = chunkSizes[chunk];
                    try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
                        return ByteBuffer.wrap(zstd.decompress(chunks.get(chunk++), rawLength));
                    }
                }
                if (chunk == chunks.size()) {
                    chunk++;
                    return ByteBuffer.wrap(tail, 0, tailLength);
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                while (in != null && !in.hasRemaining()) {
                    in = nextBuffer();
                }
                return in != null;
            }

            @Override
            public ConsumerRecord<byte[], byte[]> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                long offset = in.getLong();
                long timestamp = in.getLong();
                TimestampType type = timestampType(in.get());
                byte[] key = bytes(in);
                byte[] value = bytes(in);
                int count = in.getInt();
                RecordHeaders headers = new RecordHeaders();
                for (int i = 0; i < count; i++) {
                    headers.add(new String(bytes(in), StandardCharsets.UTF_8), bytes(in));
                }
                return new ConsumerRecord<>(partition.topic(), partition.partition(), offset, timestamp, type,
                        key == null ? -1 : key.length, value == null ? -1 : value.length, key, value, headers,
                        Optional.empty());
            }
        };
    }

    private void compressTail() {
        byte[] frame;
        try (ZstdBlocks zstd = ZstdBlocks.borrow()) {
            frame = zstd.compress(tail, 0, tailLength);
        }
        int n = frame.length;
        chunks.add(frame);
        if (chunks.size() > chunkSizes.length) {
            chunkSizes = Arrays.copyOf(chunkSizes, chunkSizes.length * 2);
        }
        chunkSizes[chunks.size() - 1] = tailLength;
        compressedBytes += n;
        tailLength = 0;
    }

    private static TimestampType timestampType(int id) {
        for (TimestampType t : TimestampType.values()) {
            if (t.id == id) {
                return t;
            }
        }
        throw new IllegalStateException("no timestamp type has id " + id);
    }

    private static void bytes(ByteBuffer out, byte[] bytes) {
        if (bytes == null) {
            out.putInt(-1);
        } else {
            out.putInt(bytes.length);
            out.put(bytes);
        }
    }

    private static byte[] bytes(ByteBuffer in) {
        int n = in.getInt();
        if (n < 0) {
            return null;
        }
        byte[] bytes = new byte[n];
        in.get(bytes);
        return bytes;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
