package io.sluice.storage.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.sluice.storage.codec.Codec;
import io.sluice.testkit.TestDirs;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** JSON Lines files as DuckDB reads them, for the codecs DuckDB decompresses itself (by the file's extension). */
class JsonLinesDuckDbTest {

    @ParameterizedTest
    @EnumSource(value = Codec.class, names = {"NONE", "GZIP", "ZSTD"})
    void duckDbReadsEveryLineWithItsCoordinatesAndValues(Codec codec) throws Exception {
        FileFormat format = new JsonLinesFormat(codec, true, true);
        Path file = TestDirs.newDir("jsonl-" + codec).resolve("orders+2+0" + format.extension());
        FormatFixtures.write(format, file, FormatFixtures.events(3_000));
        try (DuckDb duck = new DuckDb()) {
            String from = " FROM read_ndjson('" + file + "')";
            assertEquals("3000|0|2999|4498500|orders|2", duck.coordinates(from));
            assertEquals("1790000000007|key-7|1|t-7|70|view|8.75|3|user-7|null|2026-11-20T10:00:07Z|7.07", duck.row(
                    "SELECT kafka_timestamp, kafka_key, len(kafka_headers), kafka_headers[1].value, id, category, amount, len(tags), "
                    + "\"user\".name, \"user\".age, \"at\", price" + from + " WHERE kafka_offset = 7"));
            assertEquals("2|trace|null", duck.row("SELECT len(kafka_headers), kafka_headers[2].key, "
                    + "kafka_headers[2].value" + from + " WHERE kafka_offset = 8"), "a repeated header name is kept");
        }
    }
}
