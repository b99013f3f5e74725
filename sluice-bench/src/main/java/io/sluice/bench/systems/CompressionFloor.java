package io.sluice.bench.systems;

import io.sluice.bench.Scenario;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.JsonLinesFormat;
import io.sluice.storage.value.ValueReader;
import java.io.OutputStream;
import java.util.Map;

/**
 * The floor of a JSON Lines archive (issue 17): consume every value and compress it, one line each, with the
 * scenario's codec at the archive's level, into nothing; no layout, no files, no commits. No archiver can spend less
 * CPU per record than this, so {@code sluice}'s CPU per record over the floor's says what the rest of the archive
 * costs.
 *
 * <p>{@code floor-checked} also reads each value as the archive must before it writes it (the format's value encoding: checked
 * to be JSON, the layout's fields picked out): a JSON Lines file that downstream readers can trust needs it, so it
 * is the floor of a checked archive, and {@code sluice}'s CPU over it says what the layout, files, commits and the
 * engine cost.
 *
 * <p>Threading: the consumer's thread does all of it.
 */
final class CompressionFloor {

    private CompressionFloor() {
    }

    /** @param checked whether each value is read as JSON (checked, the layout's fields picked out) first */
    static Map<String, Object> run(String bootstrap, String topic, Scenario scenario, boolean checked, Measurement m)
            throws Exception {
        if (!(scenario.archive().format() instanceof JsonLinesFormat lines)) {
            throw new IllegalArgumentException("the floor compresses JSON Lines; " + scenario.name() + " writes "
                    + scenario.archive().format().extension() + " files");
        }
        Codec codec = lines.codec();
        CountingDiscard compressedBytes = new CountingDiscard();
        SystemMain.Handler counted = new SystemMain.Handler(0, m);
        ValueReader reader = checked ? lines.valueEncoding().reader(scenario.archive().layout().fieldPaths(), true)
                : null;
        try (OutputStream out = codec.compress(compressedBytes)) {
            PlainConsumerSystem.run(bootstrap, topic, scenario.archive().fetchSizes(), value -> {
                if (value != null) {
                    if (reader != null) {
                        reader.read(value);
                    }
                    out.write(value);
                    out.write('\n');
                }
                counted.handle(value);
            }, m);
        }
        Map<String, Object> result = m.result();
        result.put("output_rows", m.count());
        result.put("output_bytes", compressedBytes.count);
        return result;
    }

    /** Counts what it is given and keeps none of it. */
    private static final class CountingDiscard extends OutputStream {
        private long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
