package io.sluice.cli.produce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.producer.input.BadInputException;
import io.sluice.producer.input.InputLine;
import io.sluice.producer.input.InputRecord;
import io.sluice.producer.input.Origin;
import io.sluice.testkit.TestDirs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A JSON number that Avro would hold as another value is refused, not changed. */
class AvroValuesTest {

    @Test
    void aNumberBeyondADoublesRangeIsRefusedNotMadeInfinite() throws Exception {
        Path schema = Files.writeString(TestDirs.newDir("avro-values").resolve("order.avsc"), """
                {"type": "record", "name": "Order", "fields": [{"name": "amount", "type": ["null", "double"]}]}""");
        AvroValues values = AvroValues.over(line -> InputRecord.of(line.origin(), null, line.bytes()), schema, null);
        Origin origin = new Origin("in.jsonl", 1, 0, 20);

        values.parse(new InputLine(origin, "{\"amount\":1.5e300}".getBytes(StandardCharsets.UTF_8)));
        BadInputException refused = assertThrows(BadInputException.class, () -> values.parse(new InputLine(origin,
                "{\"amount\":1e400}".getBytes(StandardCharsets.UTF_8))));
        assertEquals("field \"amount\": expected a double (at most 1.7976931348623157E308 either way), found a number "
                + "beyond a double's range", refused.getMessage());
    }
}
