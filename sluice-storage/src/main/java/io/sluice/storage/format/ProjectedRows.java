package io.sluice.storage.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericRecord;

/**
 * Reads the coordinate columns of files whose rows are Avro records (Parquet, Avro containers) through a projection,
 * so the value's columns are skipped rather than decoded.
 *
 * <p>Threading: stateless; safe for concurrent use.
 */
abstract class ProjectedRows implements ArchivedRows {

    /** The projection: what the audit needs of each row. */
    static final Schema COORDINATES = SchemaBuilder.record("Coordinates").fields()
            .requiredString(RowSchema.TOPIC)
            .requiredInt(RowSchema.PARTITION)
            .requiredLong(RowSchema.OFFSET)
            .endRecord();

    /** The rows of one file, projected to {@link #COORDINATES}. */
    interface Cursor extends Closeable {
        /** The next row, or null at the end of the file. */
        GenericRecord next() throws IOException;
    }

    abstract Cursor open(Path file) throws IOException;

    @Override
    public final void read(Path file, Visitor visitor) throws IOException {
        long row = 0;
        try (Cursor rows = open(file)) {
            GenericRecord r;
            while ((r = rows.next()) != null) {
                row++;
                Object topic = r.get(RowSchema.TOPIC);
                Object partition = r.get(RowSchema.PARTITION);
                Object offset = r.get(RowSchema.OFFSET);
                if (topic == null || partition == null || offset == null) {
                    throw new MissingCoordinates(file + " row " + row + ": missing " + RowSchema.TOPIC + ", "
                            + RowSchema.PARTITION + " or " + RowSchema.OFFSET);
                }
                visitor.row(topic.toString(), (Integer) partition, (Long) offset);
            }
        } catch (MissingCoordinates e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            // Parquet and Avro fail on truncated or corrupt files with runtime exceptions as often as IOExceptions
            throw new IOException(file + ": unreadable after row " + row + ": " + inWords(e) + " (a file cut short or "
                    + "damaged, or not " + formatName() + " Sluice wrote)", e);
        }
    }

    /** How messages name the files: "a Parquet file". */
    abstract String formatName();

    /** The reader's own words, without its class unless it gave none. */
    private static String inWords(Exception e) {
        return e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
    }

    private static final class MissingCoordinates extends IOException {
        private static final long serialVersionUID = 1L;

        MissingCoordinates(String message) {
            super(message);
        }
    }
}
