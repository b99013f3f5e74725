package io.sluice.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Values as people write them: sizes, durations, lists, variables. */
class TypesTest {

    private static <T> T parse(ValueType<T> type, String text) throws ValueType.InvalidValue {
        return type.parse(Value.Scalar.builtIn(text));
    }

    @Test
    void sizesInBinaryAndDecimalUnits() throws Exception {
        ValueType<Long> size = Types.size(1);
        assertEquals(1_048_576L, parse(size, "1048576"));
        assertEquals(128L << 20, parse(size, "128MiB"));
        assertEquals(128L << 20, parse(size, "128 mib"));
        assertEquals(100_000_000L, parse(size, "100MB"));
        assertEquals(2L << 30, parse(size, "2GiB"));
        assertEquals("'5MB' is too small; the least is 5MiB",
                assertThrows(ValueType.InvalidValue.class, () -> parse(Types.size(5L << 20), "5MB")).getMessage());
        assertEquals("128MiB", Sizes.format(128L << 20));
        assertEquals("1000B", Sizes.format(1000));
    }

    /** A lowercase b in a rate often means bits: refused with both readings, where a size takes it as bytes. */
    @Test
    void ratesRefuseALowercaseB() throws Exception {
        ValueType<Long> rate = Types.rate(1024);
        assertEquals(50_000_000L, parse(rate, "50MB/s"));
        assertEquals(512L << 10, parse(rate, "512KiB/s"));
        assertEquals(2_000_000L, parse(rate, "2000000"));
        assertEquals("'50mb/s' is ambiguous: a lowercase b in a rate often means bits. Rates here are bytes per second:"
                + " write 50MB/s for bytes, or 6250KB/s for 50 megabits a second",
                assertThrows(ValueType.InvalidValue.class, () -> parse(rate, "50mb/s")).getMessage());
        assertEquals("'8Mb/s' is ambiguous: a lowercase b in a rate often means bits. Rates here are bytes per second:"
                + " write 8MB/s for bytes, or 1MB/s for 8 megabits a second",
                assertThrows(ValueType.InvalidValue.class, () -> parse(rate, "8Mb/s")).getMessage());
        assertEquals("'64kib/s' is ambiguous: a lowercase b in a rate often means bits. Rates here are bytes per second:"
                + " write 64KiB/s for bytes, or 8192B/s for 64 kibibits a second",
                assertThrows(ValueType.InvalidValue.class, () -> parse(rate, "64kib/s")).getMessage());
        assertEquals(50_000_000L, parse(Types.size(1), "50mb"), "a size is bytes either way");
    }

    @Test
    void durationsShortAndIso() throws Exception {
        ValueType<Duration> d = Types.duration(Duration.ZERO);
        assertEquals(Duration.ofMillis(500), parse(d, "500ms"));
        assertEquals(Duration.ofMinutes(90), parse(d, "1h30m"));
        assertEquals(Duration.ofDays(2), parse(d, "2d"));
        assertEquals(Duration.ofSeconds(10), parse(d, "PT10S"));
        assertThrows(ValueType.InvalidValue.class, () -> parse(d, "10"));
        assertThrows(ValueType.InvalidValue.class, () -> parse(d, "s10"));
        assertEquals("1h30m", Durations.format(Duration.ofMinutes(90)));
    }

    @Test
    void listsFromYamlOrFromOneVariableWithCommas() throws Exception {
        assertEquals(List.of("a:1", "b:2"), parse(Types.HOST_PORTS, "a:1, b:2"));
        assertEquals(List.of("[::1]:9092"), parse(Types.HOST_PORTS, "[::1]:9092"));
        assertThrows(ValueType.InvalidValue.class, () -> parse(Types.HOST_PORTS, "a:99999"));
    }

    @Test
    void variablesExpandLikeAShell() throws Exception {
        Variables vars = Variables.of(Map.of("HOST", "broker", "EMPTY", ""));
        assertEquals("broker:9092", Substitution.expand("${HOST}:9092", vars));
        assertEquals("fallback", Substitution.expand("${EMPTY:-fallback}", vars));
        assertEquals("x-y", Substitution.expand("${MISSING:-x-y}", vars));
        assertEquals("cost $5 ${HOST}", Substitution.expand("cost $5 $${HOST}", vars));
        assertEquals("${MISSING} is not set; set the environment variable or give a default: ${MISSING:-value}",
                assertThrows(Substitution.Unresolved.class, () -> Substitution.expand("${MISSING}", vars)).getMessage());
    }

    @Test
    void suggestionsOnlyWhenClose() {
        assertEquals("; did you mean 'format'?", Suggestions.didYouMean("fromat", List.of("codec", "format")));
        assertEquals("; did you mean 'session.timeout.ms'?",
                Suggestions.didYouMean("sesion.timeout.ms", List.of("session.timeout.ms", "max.poll.records")));
        assertEquals("", Suggestions.didYouMean("xyz", List.of("codec", "format")));
    }
}
