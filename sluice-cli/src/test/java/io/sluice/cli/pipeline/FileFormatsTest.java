package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.sluice.storage.format.FormatConfig;
import org.junit.jupiter.api.Test;

/**
 * The registry lists what sluice-storage's writers take: every codec listed builds, the defaults agree, and a codec
 * of another format does not build (so the lists are not looser than the writers).
 */
class FileFormatsTest {

    private static final String SCHEMA = """
            {"type": "record", "name": "Event", "fields": [{"name": "id", "type": "string"}]}""";

    private static FormatConfig.Builder builder(FileFormats.Entry format) {
        FormatConfig.Builder b = FormatConfig.builder().format(format.name());
        return format.needsSchema() ? b.valueSchema(SCHEMA) : b;
    }

    @Test
    void everyListedCodecIsOneTheWritersTakeAndTheDefaultsAgree() {
        for (FileFormats.Entry format : FileFormats.all()) {
            assertEquals(format.defaultCodec(), builder(format).build().codec(), format.name());
            for (String codec : format.codecs()) {
                assertEquals(codec, builder(format).codec(codec).build().codec(), format.name());
            }
            String stranger = format == FileFormats.AVRO ? "zstd" : "zstandard";
            assertThrows(IllegalArgumentException.class, () -> builder(format).codec(stranger).build(), format.name());
        }
    }

    @Test
    void theFormatsListedForAvroValuesAreThoseThatTakeThem() {
        for (FileFormats.Entry format : FileFormats.all()) {
            for (String encoding : FileFormats.VALUE_ENCODINGS.subList(1, FileFormats.VALUE_ENCODINGS.size())) {
                FormatConfig.Builder avro = FormatConfig.builder().format(format.name()).valueSchema(SCHEMA)
                        .valueEncoding(encoding);
                if (format.avroValues()) {
                    assertEquals(encoding, avro.build().valueEncoding(), format.name());
                } else {
                    assertThrows(IllegalArgumentException.class, avro::build, format.name());
                }
            }
        }
        assertEquals("json", builder(FileFormats.JSONL).build().valueEncoding(), "the default is the first");
    }

    @Test
    void rawDelimitersAreTheWritersOwn() {
        assertEquals(java.util.List.of(".raw.zst", ".rawlen.zst"), FileFormats.RAW_DELIMITERS.stream()
                .map(d -> builder(FileFormats.RAW).delimiter(d).build().fileFormat().extension()).toList());
        assertThrows(IllegalArgumentException.class, () -> builder(FileFormats.RAW).delimiter("comma").build());
    }
}
