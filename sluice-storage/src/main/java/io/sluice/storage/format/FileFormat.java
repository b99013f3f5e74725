package io.sluice.storage.format;

import io.sluice.core.sink.RecordRejectedException;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.value.FieldPath;
import io.sluice.storage.value.ValueFields;
import io.sluice.storage.value.ValueEncoding;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** A file format with its codec: how records become the bytes of one file. */
public interface FileFormat {

    /** The file name suffix, e.g. {@code .jsonl.zst}. */
    String extension();

    /** How the values this format is given are encoded: what the sink decodes them with, for the layout and for it. */
    ValueEncoding valueEncoding();

    /**
     * Whether the writer needs each value decoded whole before it writes it (JSON Lines: scanned, so known to be JSON;
     * Parquet and Avro of Avro values: the decoded record). Formats that parse the value themselves, or store its
     * bytes, do not.
     */
    boolean decodesValues();

    /**
     * Whether the writer parses each value whole and rejects what is not in the value encoding (a JSON value converted
     * to a schema's row), so that the layout's reader need not read past its fields ({@code
     * ValueEncoding.fieldReader}). By default no.
     */
    default boolean parsesValues() {
        return false;
    }

    /**
     * Checks the layout's value fields against what this format knows of the values beyond their encoding; by default
     * nothing (the encoding checks what it can).
     *
     * @throws io.sluice.storage.value.InvalidFieldPathException when no value this format accepts can have the field
     */
    default void checkFieldPaths(List<FieldPath> paths) {
    }

    /**
     * Rejects what a writer of this format would reject, without writing: the sink checks a record this way when it
     * holds it in memory for a file opened later ({@code HeldRows}), so that a bad record still fails on arrival, where
     * the engine can dead-letter it, never at the roll. By default nothing: the format takes whatever the value's
     * decoding took.
     */
    default void check(ConsumerRecord<byte[], byte[]> record, ValueFields value) throws RecordRejectedException {
    }

    /**
     * The heap a file of this format holds while open with a few rows in it: what the sink weighs against holding the
     * rows themselves when a directory has no open file. By default one chunk of a stream format before its codec
     * opens (64 KiB, docs/rolling.md).
     */
    default long heapPerOpenFile() {
        return 64 << 10;
    }

    /** A writer that compresses on the thread that writes. */
    RecordWriter open(OutputStream file) throws IOException;

    /**
     * A writer whose compression may run on {@code compressors}' threads. Formats that compress inside their own
     * structure (Parquet pages, Avro blocks) compress on the writing thread, as {@link #open(OutputStream)} does.
     */
    default RecordWriter open(OutputStream file, Compressors compressors) throws IOException {
        return open(file);
    }
}
