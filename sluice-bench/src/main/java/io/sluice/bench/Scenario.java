package io.sluice.bench;

import io.sluice.bench.acks.AcksMode;
import io.sluice.storage.codec.Codec;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.format.FormatConfig;
import io.sluice.storage.format.JsonLinesFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A benchmark: the data, the work per record, and the systems compared. Sizes are the issues'; the smoke form runs
 * the same code on tiny sizes so the test suite can check that the harness and its JSON still work.
 *
 * @param smoke         the smoke form: tiny sizes, and shorter waits where a wait is not what is measured
 * @param kind          what the systems do: run a handler, archive to files, copy to a second cluster, or compress in
 *                      memory (no broker)
 * @param handlerMillis per-record wait of the handler (0: CPU-light, it sums value lengths); engine scenarios only
 * @param prefix        records a slow system processes before its rate is extrapolated (0: all)
 * @param archive       the archive both archiving systems write; archive scenarios only, else null
 * @param ratios        ratios reported besides each system's ratio to the baseline, some with a goal
 */
public record Scenario(String name, boolean smoke, Kind kind, int records, int partitions, int keys, int valueBytes,
        int handlerMillis, int concurrency, List<String> systems, String baseline, int prefix, ArchiveWork archive,
        List<Ratio> ratios) {

    public enum Kind {
        ENGINE, ARCHIVE, MIRROR, MERGE, CODECS, ACKS, PRODUCE;

        public boolean needsBroker() {
            return this != CODECS;
        }
    }

    /**
     * {@code system}'s median rate over {@code against}'s, with the goal (at least {@code goal}) or null; or,
     * with a {@code figure}, the two systems' medians of that figure, whose goal is a cost: at most {@code goal}.
     *
     * @param figure null: the headline rate
     */
    public record Ratio(String system, String against, Double goal, String figure) {

        public Ratio(String system, String against, Double goal) {
            this(system, against, goal, null);
        }

        public String name() {
            return system + "/" + against + (figure == null ? "" : " " + figure);
        }

        /** Whether the goal is a ceiling (a cost ratio) rather than a floor (a rate ratio). */
        public boolean atMost() {
            return figure != null;
        }

        public boolean met(double ratio) {
            return atMost() ? ratio <= goal : ratio >= goal;
        }
    }

    /**
     * Only {@code chosen} of this scenario's systems (the baseline always runs: every ratio is against it), for A/B runs
     * of one system across two builds; ratios naming a system left out are dropped.
     */
    public Scenario onlySystems(List<String> chosen) {
        List<String> unknown = chosen.stream().filter(s -> !systems.contains(s)).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no system " + unknown + " in " + name + "; its systems: " + systems);
        }
        List<String> kept = systems.stream().filter(s -> s.equals(baseline) || chosen.contains(s)).toList();
        List<Ratio> keptRatios = ratios.stream().filter(r -> kept.contains(r.system()) && kept.contains(r.against()))
                .toList();
        return new Scenario(name, smoke, kind, records, partitions, keys, valueBytes, handlerMillis, concurrency, kept,
                baseline, prefix, archive, keptRatios);
    }

    /** The same scenario with another record count (a test's size between the smoke form and a full run). */
    public Scenario withRecords(int count) {
        return new Scenario(name, smoke, kind, count, partitions, keys, valueBytes, handlerMillis, concurrency, systems,
                baseline, prefix, archive, ratios);
    }

    static final String NAMES = "engine-cpu, engine-io, archive-jsonl, archive-jsonl-1p, archive-gzip-1p, "
            + "archive-parquet, archive-parquet-48h, archive-jsonl-late48h, archive-jsonl-ontime, mirror, merge, codecs, "
            + "acks, produce";

    public static Scenario named(String name, boolean smoke) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "engine-cpu" -> engine("engine-cpu", smoke, smoke ? 5_000 : 2_000_000, 0, 16,
                    List.of("plain-consumer", "sluice", "parallel-consumer"), "plain-consumer", 0);
            case "engine-io" -> engine("engine-io", smoke, smoke ? 2_000 : 200_000, 5, 256,
                    List.of("per-partition", "sluice", "parallel-consumer"), "per-partition", smoke ? 200 : 4_000);
            case "archive-jsonl" -> archive("archive-jsonl", smoke, 4, true, null,
                    () -> new JsonLinesFormat(Codec.ZSTD, false, false), JSONL_ZSTD);
            case "archive-jsonl-1p" -> archive("archive-jsonl-1p", smoke, 1, true, null,
                    () -> new JsonLinesFormat(Codec.ZSTD, false, false), JSONL_ZSTD);
            case "archive-gzip-1p" -> archive("archive-gzip-1p", smoke, 1, true, null,
                    () -> new JsonLinesFormat(Codec.GZIP, false, false), Map.of("format", "jsonl", "codec", "gzip"));
            case "archive-parquet" -> archive("archive-parquet", smoke, 4, false, null, () -> FormatConfig.builder()
                    .format("parquet").codec("zstd").valueSchema(BenchData.LOG_SCHEMA).build().fileFormat(),
                    PARQUET_ZSTD);
            case "archive-parquet-48h" -> archive("archive-parquet-48h", smoke, 4, false, Duration.ofHours(48),
                    () -> FormatConfig.builder().format("parquet").codec("zstd").valueSchema(BenchData.LOG_SCHEMA)
                            .build().fileFormat(), PARQUET_ZSTD);
            case "archive-jsonl-late48h" -> late("archive-jsonl-late48h", smoke, 0.01);
            case "archive-jsonl-ontime" -> late("archive-jsonl-ontime", smoke, 0);
            case "mirror" -> mirror(smoke);
            case "merge" -> merge(smoke);
            case "acks" -> acks(smoke);
            case "produce" -> produce(smoke);
            case "codecs" -> new Scenario("codecs", smoke, Kind.CODECS, smoke ? 2_000 : 100_000, 4, 10_000, 1_000, 0, 1,
                    Arrays.stream(Codec.values()).map(c -> c.name().toLowerCase(Locale.ROOT)).toList(), "none", 0,
                    null, List.of());
            default -> throw new IllegalArgumentException("unknown scenario '" + name + "'; known: " + NAMES
                    + ", testkit-startup");
        };
    }

    private static Scenario engine(String name, boolean smoke, int records, int handlerMillis, int concurrency,
            List<String> systems, String baseline, int prefix) {
        return new Scenario(name, smoke, Kind.ENGINE, records, 4, 10_000, 1_000, handlerMillis, concurrency, systems,
                baseline, prefix, null, List.of(new Ratio("sluice", "parallel-consumer", null)));
    }

    /**
     * Issue 14's acks table (seed 003 on real brokers): 300k log lines of 1 KB (sync rows a twentieth) into 4
     * partitions of a three-node cluster, one {@link AcksMode} per system, the leader of most partitions killed a third
     * of the way in ({@link io.sluice.bench.acks.AcksTrial}). Rates are compared with the safe row, the default of
     * every Sluice producer. The smoke form runs four of the seven rows.
     */
    private static Scenario acks(boolean smoke) {
        List<String> rows = AcksMode.ROWS.stream().map(AcksMode::name).toList();
        if (smoke) {
            // every trial waits for a broker's restart: four rows cover acks 0, 1 and all, sync and async,
            // idempotence on and off (AcksSafetyTest runs the idempotent sync row)
            rows = List.of("acks=0/async", "acks=1/sync", "acks=1/async", AcksMode.SAFE.name());
        }
        return new Scenario("acks", smoke, Kind.ACKS, smoke ? 3_000 : 300_000, 4, 10_000, 1_000, 0, 1, rows,
                AcksMode.SAFE.name(), 0, null, List.of());
    }

    /**
     * Issue 14's benchmark: 2M log lines of 1 KB (one JSON value a line) from a file into a fresh 4-partition topic of
     * one broker with acks=all, by {@code sluice produce} plain and exactly once, and by the tools it is measured
     * against ({@link io.sluice.bench.produce.ProduceSystem}); Kafka's ProducerPerformance, a Java producer and nothing
     * else, is the ceiling every ratio is against. kcat runs when it is installed, in the smoke form too.
     */
    private static Scenario produce(boolean smoke) {
        List<String> systems = List.of("producer-perf", "sluice", "sluice-eos", "console-producer", "kcat");
        List<Ratio> ratios = new ArrayList<>();
        for (String sluice : List.of("sluice", "sluice-eos")) {
            ratios.add(new Ratio(sluice, "producer-perf", 0.9));
            ratios.add(new Ratio(sluice, "console-producer", 1.0));
            ratios.add(new Ratio(sluice, "kcat", 1.0));
        }
        return new Scenario("produce", smoke, Kind.PRODUCE, smoke ? 3_000 : 2_000_000, 4, 10_000, 1_000, 0, 1,
                systems, "producer-perf", 0, null, List.copyOf(ratios));
    }

    /**
     * Issue 13's comparison: 1M log lines of 1 KB over 4 partitions copied from one single-node cluster to another by
     * Sluice's mirror (exactly once, and at least once, in-process; and both again as the {@code sluice mirror}
     * command users run, held to the same goals), a plain consume-and-produce loop, and MirrorMaker 2 in both modes,
     * tuned as a careful operator would. The smoke form leaves MirrorMaker 2 out (its classpath is resolved only for
     * full runs, bench/mm2/pom.xml, and it needs fresh clusters for every run), and the command at least once.
     */
    private static Scenario mirror(boolean smoke) {
        List<String> systems = new ArrayList<>(List.of("plain-copier", "sluice", "sluice-alo", "sluice-command"));
        List<Ratio> ratios = new ArrayList<>(List.of(new Ratio("sluice", "plain-copier", 0.8),
                new Ratio("sluice-alo", "plain-copier", 0.95), new Ratio("sluice-command", "plain-copier", 0.8)));
        if (!smoke) {
            // the command at least once differs from sluice-command by one key of its file: the smoke form's
            // sluice-command covers the way it runs
            systems.add("sluice-command-alo");
            ratios.add(new Ratio("sluice-command-alo", "plain-copier", 0.95));
            systems.addAll(List.of("mm2-alo", "mm2-eos"));
            ratios.addAll(List.of(new Ratio("sluice", "mm2-eos", 3.0), new Ratio("sluice-alo", "mm2-eos", null),
                    new Ratio("plain-copier", "mm2-eos", null), new Ratio("sluice-alo", "mm2-alo", null)));
        }
        return new Scenario("mirror", smoke, Kind.MIRROR, smoke ? 2_000 : 1_000_000, 4, 10_000, 1_000, 0, 4,
                List.copyOf(systems), "plain-copier", 0, null, List.copyOf(ratios));
    }

    /**
     * Issue 15's benchmark: two inputs of 1M log lines of 1 KB over 4 partitions each, on two single-node clusters,
     * merged into a topic on a third by Sluice's merge (exactly once, its defaults), against Sluice's mirror copying
     * both inputs there (exactly once): the cost of merging over copying the same records, in CPU per record (goal: at
     * most 1.2). The records are both inputs' together.
     */
    private static Scenario merge(boolean smoke) {
        return new Scenario("merge", smoke, Kind.MERGE, smoke ? 2_000 : 2_000_000, 4, 10_000, 1_000, 0, 4,
                List.of("sluice-mirror", "sluice-merge"), "sluice-mirror", 0, null,
                List.of(new Ratio("sluice-merge", "sluice-mirror", 1.2, "cpu_us_per_record")));
    }

    /**
     * Issue 17's late data: the archive-jsonl records by hour only, the files rolled by the default policy, by the
     * command as users run it; {@code lateFraction} of the records (1%, or none for the control run) late by up to 48
     * hours. What it reports that matters: the files, their median size, the median weighted by bytes, and files of
     * one record.
     */
    private static Scenario late(String name, boolean smoke, double lateFraction) {
        ArchiveWork work = ArchiveWork.hourly(() -> new JsonLinesFormat(Codec.ZSTD, false, false), JSONL_ZSTD,
                Duration.ofMillis(smoke ? 200 : 1_000), lateFraction == 0 ? null : Duration.ofHours(48), lateFraction);
        return new Scenario(name, smoke, Kind.ARCHIVE, smoke ? 3_000 : 2_000_000, 4, 10_000, 1_000, 0, 4,
                List.of("consume-ceiling", "sluice-command"), "consume-ceiling", 0, work, List.of());
    }

    private static final Map<String, String> JSONL_ZSTD = Map.of("format", "jsonl", "codec", "zstd");
    private static final Map<String, String> PARQUET_ZSTD = Map.of("format", "parquet", "codec", "zstd", "schema",
            "log.avsc");

    /**
     * Seed 004's comparison on the data: 2M log lines of 1 KB over 4 partitions, archived by Sluice's engine
     * (one worker per partition) and by Kafka Connect (one task per partition), against a consumer that discards.
     * The files are laid out by hour and category, written by {@code formats}. The smoke form commits every 200 ms
     * instead of every second, as the wait for the last commit is most of its run.
     *
     * <p>With one partition ({@code archive-jsonl-1p}, {@code archive-gzip-1p}), Connect has one task, a thread that
     * fetches and writes in turn, while Sluice's consumer thread fetches as its lane encodes and its compressing pool
     * compresses: the case of a topic with fewer partitions than the machine has cores, where only parallelism beyond
     * partitions helps.
     *
     * @param streamCodec whether the format is stream-compressed, so that {@code sluice-inline} (Sluice compressing
     *                    on its lanes, as Connect does) shows what the compressing pool is worth, in the same run
     * @param timeSpread  null for times rising with the topic; else the span the records' times are drawn from at
     *                    random ({@code archive-parquet-48h}: the quick start's shape, every folder of 48 hours open
     *                    in every partition; compared with {@code archive-parquet} by their CPU per record)
     */
    private static Scenario archive(String name, boolean smoke, int partitions, boolean streamCodec,
            Duration timeSpread, Supplier<FileFormat> formats, Map<String, String> formatKeys) {
        ArchiveWork work = ArchiveWork.hourAndCategory(formats, formatKeys, Duration.ofMillis(smoke ? 200 : 1_000));
        if (timeSpread != null) {
            work = work.spreadOver(timeSpread);
        }
        List<String> systems = new ArrayList<>(List.of("consume-ceiling", "sluice", "sluice-command", "connect-sink",
                "connect-json"));
        List<Ratio> ratios = new ArrayList<>(List.of(new Ratio("sluice", "consume-ceiling", 0.7),
                new Ratio("sluice", "connect-sink", 3.0), new Ratio("sluice", "connect-json", null),
                // the shipped command with its defaults against the engine set up in-process (issue 17, 0b)
                new Ratio("sluice-command", "sluice", 1.2, "cpu_us_per_record"),
                new Ratio("sluice-command", "connect-sink", null)));
        if (streamCodec) {
            systems.add(2, "sluice-inline");
            ratios.add(new Ratio("sluice", "sluice-inline", null));
            // consume + compress, nothing else: the goal is at most 1.3x its CPU per record
            systems.add(1, "floor");
            ratios.add(new Ratio("sluice", "floor", 1.3, "cpu_us_per_record"));
            // the same without the JIT compiler's threads, whose work a short run counts and a long one does not
            ratios.add(new Ratio("sluice", "floor", null, "cpu_us_per_record_without_jit"));
            // the same with each value read as the archive must (checked to be JSON, the layout's fields picked out)
            systems.add(2, "floor-checked");
            ratios.add(new Ratio("sluice", "floor-checked", null, "cpu_us_per_record"));
        }
        return new Scenario(name, smoke, Kind.ARCHIVE, smoke ? 3_000 : 2_000_000, partitions, 10_000, 1_000, 0,
                partitions, List.copyOf(systems), "consume-ceiling", 0, work, List.copyOf(ratios));
    }
}
