package io.sluice.bench.systems;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.Scenario;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.sink.ArchiveSink;
import java.nio.file.Path;
import java.util.Map;

/**
 * One system's run of one scenario, in a JVM of its own: {@code SystemMain <system> <bootstrap> <topic> <scenario>
 * <smoke> [<output folder>]} (bootstrap and topic are {@code -} for scenarios without a broker). Prints one line
 * {@code RESULT <json>}: the run's figures, such as {@code records_per_sec}, {@code mb_per_sec} and {@code seconds},
 * and per kind of scenario the output's size and rows, the heap peak, or a codec's ratio and rates.
 */
public final class SystemMain {

    private SystemMain() {
    }

    public static void main(String[] args) throws Exception {
        String system = args[0];
        String bootstrap = args[1];
        String topic = args[2];
        Scenario scenario = Scenario.named(args[3], Boolean.parseBoolean(args[4]));
        HeapPeak heap = HeapPeak.watch();
        Map<String, Object> result = switch (scenario.kind()) {
            case ENGINE -> engine(system, bootstrap, topic, scenario);
            case ARCHIVE -> archive(system, bootstrap, topic, scenario, Path.of(args[5]));
            case CODECS -> CodecSystem.run(Codec.parse(system), scenario);
            case MIRROR -> throw new IllegalArgumentException("the mirror's copiers run from "
                    + MirrorCopierMain.class.getName() + ", measured from outside");
            case MERGE -> throw new IllegalArgumentException("the merge's systems run from "
                    + MergeSystemMain.class.getName() + ", measured from outside");
            case ACKS -> throw new IllegalArgumentException("acks trials run in the benchmark's JVM, which kills "
                    + "the brokers");
            case PRODUCE -> throw new IllegalArgumentException("the produce benchmark runs each tool's own command, "
                    + "measured from outside");
        };
        result.putIfAbsent("heap_peak_mb", heap.peakBytes() / 1e6); // a system run as a process of its own has its own
        System.out.println("RESULT " + new ObjectMapper().writeValueAsString(result));
        System.out.flush();
        System.exit(0);
    }

    private static Map<String, Object> engine(String system, String bootstrap, String topic, Scenario scenario)
            throws Exception {
        boolean partial = scenario.prefix() > 0 && system.equals(scenario.baseline());
        Measurement m = new Measurement(partial ? scenario.prefix() : scenario.records());
        Handler handler = new Handler(scenario.handlerMillis(), m);
        switch (system) {
            case "plain-consumer" -> PlainConsumerSystem.run(bootstrap, topic, Map.of(), handler, m);
            case "per-partition" -> PerPartitionSystem.run(bootstrap, topic, scenario.partitions(), handler, m);
            case "sluice" -> SluiceSystem.run(bootstrap, topic, scenario.concurrency(), handler, m);
            case "parallel-consumer" ->
                    ParallelConsumerSystem.run(bootstrap, topic, scenario.concurrency(), handler, m);
            default -> throw new IllegalArgumentException("unknown system " + system + " for " + scenario.name());
        }
        Map<String, Object> result = m.result();
        result.put("extrapolated", partial);
        return result;
    }

    /**
     * Archives the topic into {@code output} and reads the output back: a run whose output misses a record fails, and
     * so does a doubled record from a system that promises exactly once. The ceiling writes nothing: it counts.
     */
    private static Map<String, Object> archive(String system, String bootstrap, String topic, Scenario scenario,
            Path output) throws Exception {
        Measurement m = new Measurement(scenario.records());
        if (system.equals("consume-ceiling")) {
            PlainConsumerSystem.run(bootstrap, topic, scenario.archive().fetchSizes(), new Handler(0, m), m);
            Map<String, Object> result = m.result();
            result.put("output_rows", m.count());
            return result;
        }
        if (system.equals("floor") || system.equals("floor-checked")) {
            return CompressionFloor.run(bootstrap, topic, scenario, system.equals("floor-checked"), m);
        }
        if (system.equals("sluice-command")) {
            Map<String, Object> result = CommandArchiveSystem.run(bootstrap, topic, scenario, output);
            result.putAll(readBack(system, scenario, output));
            return result;
        }
        ArchiveSystem archiver = switch (system) {
            case "sluice" -> new SluiceArchiveSystem(ArchiveSink.DEFAULT_COMPRESSING_THREADS);
            case "sluice-inline" -> new SluiceArchiveSystem(0);
            case "connect-sink" -> ConnectSinkSystem.sameWork();
            case "connect-json" -> ConnectSinkSystem.asDeployed();
            default -> throw new IllegalArgumentException("unknown system " + system + " for " + scenario.name());
        };
        long end = archiver.run(bootstrap, topic, scenario, output, m);
        Map<String, Object> result = m.result(end);
        result.putAll(readBack(system, scenario, output));
        return result;
    }

    /** The output's figures, once every record is found in it (and, from Sluice, each once). */
    private static Map<String, Object> readBack(String system, Scenario scenario, Path output) throws Exception {
        ArchiveOutput written = ArchiveOutput.read(output);
        if (written.distinct() != scenario.records() || (system.startsWith("sluice") && written.duplicates() > 0)) {
            throw new IllegalStateException(system + " left " + written.distinct() + " of " + scenario.records()
                    + " records in " + output + ", " + written.duplicates() + " of them more than once");
        }
        return written.figures();
    }

    /** The scenario's work per record: sum the value's length, and wait if the scenario says so. */
    record Handler(int millis, Measurement measurement) implements PlainConsumerSystem.ValueHandler {
        @Override
        public void handle(byte[] value) throws InterruptedException {
            if (millis > 0) {
                Thread.sleep(millis);
            }
            measurement.handled(value == null ? 0 : value.length);
        }
    }

    public static String group(String system) {
        return "bench-" + system + "-" + Long.toHexString(System.nanoTime());
    }
}
