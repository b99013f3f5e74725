package io.sluice.storage.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Records of one partition held in memory, by directory, for directories that have no open file: when the partition
 * holds too little for a file to be worth its cost. A record held costs its packed bytes ({@link PackedRecords}); an
 * open file costs its buffers and, for Parquet, hundreds of KiB from its first row. So a layout scattered over more directories than files can stay open (the quick start's 288 folders of 48
 * hours, by hour and type, in random order) gathers each directory's rows here and writes them as one file at the next
 * roll, where sealing the least recently written file at each record wrote a file per record (issue 17).
 *
 * <p>Held records are not written anywhere: they are below no barrier, and a crash reads them again from the last
 * commit, so holding them changes nothing in the commit protocol. Each was checked by the format on arrival
 * ({@code FileFormat.check}), so writing it later cannot reject it.
 *
 * <p>Threading: one thread at a time (the partition's lane), like the {@link OpenFiles} that own it.
 */
final class HeldRows {

    /** In the order directories were first held, so that files are written in a stable order at the roll. */
    private final Map<String, PackedRecords> byDirectory = new LinkedHashMap<>();
    private long heapBytes;

    /**
     * Holds {@code record}, of {@code size} serialized bytes ({@link PackedRecords#rawSize}), for {@code directory};
     * returns that directory's records, this one included.
     */
    PackedRecords hold(String directory, ConsumerRecord<byte[], byte[]> record, int size) {
        PackedRecords rows = byDirectory.get(directory);
        long before = 0;
        if (rows == null) {
            rows = new PackedRecords();
            byDirectory.put(directory, rows);
        } else {
            before = rows.heapBytes();
        }
        rows.add(record, size);
        heapBytes += rows.heapBytes() - before;
        return rows;
    }

    /** The serialized size of the records held for {@code directory}, 0 if none. */
    long rawBytesFor(String directory) {
        PackedRecords rows = byDirectory.get(directory);
        return rows == null ? 0 : rows.rawBytes();
    }

    /** Takes the records held for {@code directory} out, or null if none. */
    PackedRecords take(String directory) {
        PackedRecords rows = byDirectory.remove(directory);
        if (rows != null) {
            heapBytes -= rows.heapBytes();
        }
        return rows;
    }

    /** Takes every directory's records out, in the order they were first held. */
    List<Map.Entry<String, PackedRecords>> takeAll() {
        List<Map.Entry<String, PackedRecords>> all = new ArrayList<>(byDirectory.entrySet());
        byDirectory.clear();
        heapBytes = 0;
        return all;
    }

    boolean isEmpty() {
        return byDirectory.isEmpty();
    }

    /** How many directories have records held: the files a roll writes of them. */
    int directories() {
        return byDirectory.size();
    }

    /** The heap every held record takes together, packed. */
    long heapBytes() {
        return heapBytes;
    }
}
