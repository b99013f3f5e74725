package io.sluice.storage.format;

import static io.sluice.storage.format.FormatFixtures.EVENT_SCHEMA;
import static io.sluice.storage.format.FormatFixtures.config;
import static io.sluice.storage.format.FormatFixtures.events;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ParquetFormatTest {

    @ParameterizedTest
    @ValueSource(strings = {"none", "snappy", "gzip", "zstd", "lz4_raw"})
    void everyCodecIsReadByDuckDb(String codec) throws Exception {
        FileFormat format = config("parquet", codec).valueSchema(EVENT_SCHEMA).keys(true).headers(true)
                .rowGroupBytes(64 << 10).pageBytes(8 << 10).build().fileFormat();
        Path file = TestDirs.newDir("parquet-" + codec).resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, events(3_000));
        try (DuckDb duck = new DuckDb()) {
            String from = " FROM read_parquet('" + file + "')";
            assertEquals("3000|0|2999|2|4498500", duck.row("SELECT count(*), min(kafka_offset), max(kafka_offset), "
                    + "min(kafka_partition), sum(kafka_offset)" + from));
            System.out.println(duck.rows("DESCRIBE SELECT *" + from));
            System.out.println(duck.rows("SELECT *" + from + " WHERE kafka_offset IN (0, 7)"));
        }
    }
}
