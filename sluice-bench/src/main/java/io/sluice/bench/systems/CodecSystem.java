package io.sluice.bench.systems;

import io.sluice.bench.BenchData;
import io.sluice.bench.Scenario;
import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.format.RecordWriter;
import io.sluice.storage.json.JsonScan;
import io.sluice.storage.json.MalformedJsonException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Utils;

/**
 * One codec of the JSON Lines format on the scenario's records, in memory: the ratio of the file's size without a
 * codec to its size with it, the rate at which the format writes records through the codec ({@code none} is the
 * format alone), and the rate at which the codec gives the file back. Both rates are in MB of uncompressed JSON Lines
 * per second. A warm-up pass over a tenth of the records comes first, so the JIT has compiled the paths timed.
 *
 * <p>Threading: one thread.
 */
final class CodecSystem {

    private CodecSystem() {
    }

    static Map<String, Object> run(Codec codec, Scenario scenario) throws IOException, MalformedJsonException,
            RecordRejectedException {
        List<ConsumerRecord<byte[], byte[]>> records = records(scenario);
        List<JsonScan> scans = new ArrayList<>(records.size());
        for (ConsumerRecord<byte[], byte[]> r : records) {
            scans.add(JsonScan.scan(r.value(), List.of()));
        }
        byte[] plain = write(Codec.NONE, records, scans, records.size());
        byte[] restored = new byte[plain.length + 1]; // one more: a codec that gives back too much shows
        decompress(codec, write(codec, records, scans, records.size() / 10), restored);

        long start = System.nanoTime();
        byte[] compressed = write(codec, records, scans, records.size());
        double compressSeconds = (System.nanoTime() - start) / 1e9;
        start = System.nanoTime();
        int length = decompress(codec, compressed, restored);
        double decompressSeconds = (System.nanoTime() - start) / 1e9;
        if (length != plain.length || !Arrays.equals(plain, 0, length, restored, 0, length)) {
            throw new IllegalStateException(codec + " did not give back the bytes it compressed");
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("records", records.size());
        r.put("plain_bytes", plain.length);
        r.put("compressed_bytes", compressed.length);
        r.put("ratio", (double) plain.length / compressed.length);
        r.put("compress_mb_per_sec", plain.length / compressSeconds / 1e6);
        r.put("decompress_mb_per_sec", plain.length / decompressSeconds / 1e6);
        return r;
    }

    /** The records as the archive sees them: the broker's partitioning and offsets, the values' own times. */
    private static List<ConsumerRecord<byte[], byte[]>> records(Scenario scenario) {
        BenchData.Generator generator = BenchData.generator(scenario);
        long[] offsets = new long[scenario.partitions()];
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>(scenario.records());
        for (int i = 0; i < scenario.records(); i++) {
            byte[] key = generator.nextKey();
            byte[] value = generator.nextValue();
            int partition = Utils.toPositive(Utils.murmur2(key)) % scenario.partitions();
            long timestamp = BenchData.START_MILLIS + i / 100; // written at about 100 records per millisecond
            records.add(new ConsumerRecord<>(scenario.name(), partition, offsets[partition]++, timestamp,
                    TimestampType.CREATE_TIME, key.length, value.length, key, value, new RecordHeaders(),
                    Optional.empty()));
        }
        return records;
    }

    private static byte[] write(Codec codec, List<ConsumerRecord<byte[], byte[]>> records, List<JsonScan> scans,
            int count) throws IOException, RecordRejectedException {
        ByteArrayOutputStream file = new ByteArrayOutputStream(count * 1_200);
        RecordWriter writer = new JsonLinesFormat(codec, false, false).open(file);
        for (int i = 0; i < count; i++) {
            writer.write(records.get(i), scans.get(i));
        }
        writer.close();
        return file.toByteArray();
    }

    /** Decompresses into {@code into} until the end or until it is full; returns the bytes given back. */
    private static int decompress(Codec codec, byte[] compressed, byte[] into) throws IOException {
        int n = 0;
        try (InputStream in = codec.decompress(new ByteArrayInputStream(compressed))) {
            int read;
            while (n < into.length && (read = in.read(into, n, Math.min(64 * 1024, into.length - n))) > 0) {
                n += read;
            }
        }
        return n;
    }
}
