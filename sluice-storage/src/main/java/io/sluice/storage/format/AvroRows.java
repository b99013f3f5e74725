package io.sluice.storage.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.file.FileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * The coordinates of an Avro container file: schema resolution skips the value's fields instead of building them. A
 * file cut inside a block is reported, not taken for a shorter file.
 */
final class AvroRows extends ProjectedRows {

    @Override
    Cursor open(Path file) throws IOException {
        // openReader closes the file when the header is unreadable; the constructors leave that to the caller
        FileReader<GenericRecord> reader = DataFileReader.openReader(file.toFile(),
                new GenericDatumReader<>(null, COORDINATES));
        return new Cursor() {
            private GenericRecord reuse;

            @Override
            public GenericRecord next() throws IOException {
                if (!reader.hasNext()) {
                    // Avro takes the end of the data inside a block for the end of the file: a truncated file would
                    // look complete. A whole file ends right after a block's sync marker.
                    long length = Files.size(file);
                    if (reader instanceof DataFileReader<GenericRecord> blocks && blocks.previousSync() != length) {
                        throw new IOException("the file ends inside the block that starts at byte "
                                + blocks.previousSync() + " of " + length + " (truncated?)");
                    }
                    return null;
                }
                reuse = reader.next(reuse);
                return reuse;
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    @Override
    String formatName() {
        return "an Avro file";
    }
}
