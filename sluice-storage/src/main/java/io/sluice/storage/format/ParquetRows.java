package io.sluice.storage.format;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.avro.AvroReadSupport;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.io.LocalInputFile;

/** The coordinates of a Parquet file: only their column chunks are read. */
final class ParquetRows extends ProjectedRows {

    @Override
    Cursor open(Path file) throws IOException {
        PlainParquetConfiguration conf = new PlainParquetConfiguration();
        conf.set(AvroReadSupport.AVRO_REQUESTED_PROJECTION, COORDINATES.toString());
        ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file), conf)
                .build();
        return new Cursor() {
            @Override
            public GenericRecord next() throws IOException {
                return reader.read();
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    @Override
    String formatName() {
        return "a Parquet file";
    }
}
