package io.sluice.storage.format;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.avro.generic.GenericData;
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
        // with no data model given, the reader asks the configuration for one, which builds a Hadoop configuration
        // and parses its XML defaults for every file: 80% of an audit's reading of 1,568 small files
        ParquetReader<GenericRecord> reader = AvroParquetReader.<GenericRecord>builder(new LocalInputFile(file), conf)
                .withDataModel(GenericData.get())
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
