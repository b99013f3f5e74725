package io.sluice.cli.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Value;
import io.sluice.cli.config.Variables;
import io.sluice.core.EngineConfig;
import io.sluice.storage.backend.S3Config;
import io.sluice.storage.format.FormatConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.SslConfigs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every default the reference (docs/configuration.md) states is what the engine and the sink get when the key is left
 * out. Pipelines without optional keys are built (one more for each section that applies only sometimes: tls, parquet,
 * raw, s3), and what reached the engine's configuration, the file format, the rolling policy, the S3 backend's
 * configuration and the metrics endpoint is compared, key by key, with the reference's text read back as the key
 * reads it.
 */
class PipelineDefaultsTest {

    private static final Pattern SECTION = Pattern.compile("^#{2,3} `([a-z0-9.-]+)`:");
    private static final Pattern CELL_SPLIT = Pattern.compile("(?<!\\\\)\\|");
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    @TempDir
    Path dir;

    @Test
    void everyDefaultTheReferenceStatesIsWhatTheEngineAndTheSinkReceive() throws Exception {
        Pipeline plain = pipeline("plain", "", "");
        EngineConfig engine = PipelineParts.engine(plain, plain.source().topics()).build();
        Pipeline tls = pipeline("tls", "  tls:\n    enabled: true\n", "");
        EngineConfig tlsEngine = PipelineParts.engine(tls, tls.source().topics()).build();
        Files.writeString(dir.resolve("order.avsc"), "{\"type\": \"record\", \"name\": \"Order\", \"fields\": "
                + "[{\"name\": \"id\", \"type\": \"string\"}]}");
        FormatConfig jsonl = plain.sink().files().config();
        FormatConfig parquet = pipeline("parquet", "", "  format: parquet\n  schema: order.avsc\n").sink().files()
                .config();
        FormatConfig raw = pipeline("raw", "", "  format: raw\n").sink().files().config();
        S3Config s3 = StorageBackends.s3Config(pipelineAt("s3", "s3://bucket/archive/").sink().storage());
        SinkConfig sink = plain.sink();

        Map<ConfigKey<?>, Object> received = new LinkedHashMap<>();
        received.put(PipelineKeys.START, engine.startPosition());
        received.put(PipelineKeys.ON_OUT_OF_RANGE, engine.outOfRangePolicy());
        received.put(PipelineKeys.SOURCE_CLUSTER.verifyHostname(), "https".equals(tlsEngine.consumerProperties()
                .get(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG)));
        received.put(PipelineKeys.CONCURRENCY, engine.concurrency());
        received.put(PipelineKeys.COMMIT_INTERVAL, engine.commitInterval());
        received.put(PipelineKeys.DRAIN_TIMEOUT, engine.drainTimeout());
        received.put(PipelineKeys.MAX_ATTEMPTS, engine.maxAttempts());
        received.put(PipelineKeys.RETRY_BACKOFF, engine.initialBackoff());
        received.put(PipelineKeys.RETRY_BACKOFF_MAX, engine.maxBackoff());
        received.put(PipelineKeys.DEAD_LETTER_RETRY_FOR, engine.deadLetterRetryFor());
        received.put(PipelineKeys.METRICS_ADDRESS, plain.metrics().address());
        received.put(PipelineKeys.TEMPLATE, sink.template());
        received.put(PipelineKeys.TIME_ZONE, sink.timeZone());
        received.put(PipelineKeys.FORMAT, jsonl.format());
        received.put(PipelineKeys.VALUE_ENCODING, jsonl.valueEncoding());
        received.put(PipelineKeys.KAFKA_KEY, jsonl.keys());
        received.put(PipelineKeys.KAFKA_HEADERS, jsonl.headers());
        received.put(PipelineKeys.DELIVERY, sink.delivery());
        received.put(PipelineKeys.MAX_BYTES, sink.rolling().maxBytes());
        received.put(PipelineKeys.MAX_RECORDS, sink.rolling().maxRecords());
        received.put(PipelineKeys.MAX_AGE, sink.rolling().maxAge());
        received.put(PipelineKeys.MAX_OPEN_FILES, sink.rolling().maxOpenFiles());
        received.put(PipelineKeys.ROW_GROUP_SIZE, parquet.rowGroupBytes());
        received.put(PipelineKeys.RAW_DELIMITER, raw.delimiter());
        received.put(PipelineKeys.S3_REGION, s3.region());
        received.put(PipelineKeys.S3_PART_SIZE, (long) s3.partSize());
        received.put(PipelineKeys.S3_RETRY_FOR, s3.retryFor());

        TreeSet<String> withDefault = new TreeSet<>();
        PipelineKeys.CATALOG.keys().stream().filter(k -> k.presence() == ConfigKey.Presence.DEFAULT)
                .forEach(k -> withDefault.add(k.path()));
        TreeSet<String> checked = new TreeSet<>();
        received.keySet().forEach(k -> checked.add(k.path()));
        assertEquals(withDefault, checked, "every key with a default is checked here against what receives it");

        Map<String, String> stated = statedDefaults(ConfigurationReference.markdown());
        for (Map.Entry<ConfigKey<?>, Object> e : received.entrySet()) {
            ConfigKey<?> key = e.getKey();
            String text = stated.get(key.path());
            assertNotNull(text, key.path() + ": the reference states no default");
            assertEquals(key.type().parse(Value.Scalar.builtIn(text)), e.getValue(),
                    key.path() + ": the reference says `" + text + "`, and that is not what applies without the key");
        }
    }

    /** The default column of the reference's key tables, by key path, for the defaults written as code. */
    private static Map<String, String> statedDefaults(String markdown) {
        Map<String, String> defaults = new LinkedHashMap<>();
        String section = null;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("#")) {
                Matcher header = SECTION.matcher(line);
                section = header.find() ? header.group(1) : null; // the formats' and storages' tables hold no keys
                continue;
            }
            if (section == null || !line.startsWith("| `")) {
                continue;
            }
            String[] cells = CELL_SPLIT.split(line);
            Matcher name = CODE.matcher(cells[1].trim());
            Matcher value = CODE.matcher(cells[3].trim());
            if (name.matches() && value.matches()) {
                defaults.put(section + "." + name.group(1), value.group(1));
            }
        }
        return defaults;
    }

    private Pipeline pipeline(String name, String source, String sink) throws Exception {
        return parse(name, source, "  location: " + name + "-archive\n" + sink);
    }

    private Pipeline pipelineAt(String name, String location) throws Exception {
        return parse(name, "", "  location: " + location + "\n");
    }

    private Pipeline parse(String name, String source, String sink) throws Exception {
        String yaml = "source:\n  bootstrap-servers: 127.0.0.1:9092\n  topics: [orders]\n  group: orders-archive\n"
                + source + "sink:\n" + sink;
        return Pipelines.parse(name + ".yaml", yaml, dir, Variables.of(Map.of()));
    }
}
