package io.sluice.storage.sink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * Records of one partition held in memory, by directory, for directories that have no open file: when the partition
 * has as many files open as it may, or when opening one more would cost the sink more heap than it has room for. A
 * record held costs its own bytes; an open file costs its buffers and, for Parquet, hundreds of KiB from its first
 * row. So a layout scattered over more directories than files can stay open (the quick start's 288 folders of 48
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

    /**
     * The heap a held record costs beyond its key, value and headers: the record object, its headers, and the list
     * slot (a generous count: ConsumerRecord is about 100 bytes with its fields, each array 16 more).
     */
    static final int PER_RECORD = 160;

    /** One directory's held records, in offset order. */
    static final class Rows {
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        long bytes;

        long firstOffset() {
            return records.get(0).offset();
        }
    }

    /** In the order directories were first held, so that files are written in a stable order at the roll. */
    private final Map<String, Rows> byDirectory = new LinkedHashMap<>();
    private long bytes;

    /** Holds {@code record} for {@code directory}; returns that directory's records, this one included. */
    Rows hold(String directory, ConsumerRecord<byte[], byte[]> record) {
        Rows rows = byDirectory.computeIfAbsent(directory, d -> new Rows());
        long size = sizeOf(record);
        rows.records.add(record);
        rows.bytes += size;
        bytes += size;
        return rows;
    }

    /** What the records held for {@code directory} cost, 0 if none. */
    long bytesFor(String directory) {
        Rows rows = byDirectory.get(directory);
        return rows == null ? 0 : rows.bytes;
    }

    /** Takes the records held for {@code directory} out, or null if none. */
    Rows take(String directory) {
        Rows rows = byDirectory.remove(directory);
        if (rows != null) {
            bytes -= rows.bytes;
        }
        return rows;
    }

    /** Takes every directory's records out, in the order they were first held. */
    List<Map.Entry<String, Rows>> takeAll() {
        List<Map.Entry<String, Rows>> all = new ArrayList<>(byDirectory.entrySet());
        byDirectory.clear();
        bytes = 0;
        return all;
    }

    boolean isEmpty() {
        return byDirectory.isEmpty();
    }

    /** What every held record costs together. */
    long bytes() {
        return bytes;
    }

    static long sizeOf(ConsumerRecord<byte[], byte[]> record) {
        long size = PER_RECORD + length(record.key()) + length(record.value());
        for (Header h : record.headers()) {
            size += PER_RECORD / 4 + h.key().length() + length(h.value());
        }
        return size;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }
}
