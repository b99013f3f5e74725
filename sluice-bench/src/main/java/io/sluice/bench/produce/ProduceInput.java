package io.sluice.bench.produce;

import io.sluice.bench.BenchData;
import io.sluice.bench.Scenario;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file every system of the produce benchmark reads: the scenario's log lines ({@link BenchData#generator}), one
 * JSON value per line, written once. Beside it a sample of its first lines, for Kafka's ProducerPerformance, which
 * loads its whole payload file into memory (2 GB of lines would take a heap of several times that) and sends lines
 * drawn at random from it.
 *
 * @param lines       the scenario's records, each followed by a newline
 * @param sample      the first {@code sampleLines} lines of {@code lines}
 * @param valueBytes  the bytes of the values in {@code lines}, newlines left out
 */
public record ProduceInput(Path lines, Path sample, int records, int sampleLines, long valueBytes) {

    /** Lines enough to keep ProducerPerformance's payloads as varied as the file's, in 10 MB of heap. */
    static final int SAMPLE_LINES = 10_000;

    /** Writes the scenario's lines under {@code dir}. */
    public static ProduceInput write(Path dir, Scenario scenario) {
        Path lines = dir.resolve("log-lines.jsonl");
        Path sample = dir.resolve("log-lines-sample.jsonl");
        int sampleLines = Math.min(SAMPLE_LINES, scenario.records());
        long bytes = 0;
        BenchData.Generator records = BenchData.generator(scenario);
        try (OutputStream all = new BufferedOutputStream(Files.newOutputStream(lines), 1 << 20);
                OutputStream first = new BufferedOutputStream(Files.newOutputStream(sample), 1 << 20)) {
            for (int i = 0; i < scenario.records(); i++) {
                records.nextKey(); // the keys are not sent, but drawn, so the values are those of every other bench
                byte[] value = records.nextValue();
                bytes += value.length;
                all.write(value);
                all.write('\n');
                if (i < sampleLines) {
                    first.write(value);
                    first.write('\n');
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the produce benchmark's input under " + dir, e);
        }
        return new ProduceInput(lines, sample, scenario.records(), sampleLines, bytes);
    }

    /**
     * Reads the file once, untimed, so that every system finds it in the page cache: idle pages are evicted within
     * about a minute on this machine, and the system that came first after a pause would pay for the disk.
     */
    public void readThrough() {
        byte[] buffer = new byte[1 << 20];
        try (InputStream in = Files.newInputStream(lines)) {
            while (in.read(buffer) >= 0) {
                // only the reading matters
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void delete() {
        try {
            Files.deleteIfExists(lines);
            Files.deleteIfExists(sample);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
