package io.sluice.cli.pipeline;

import io.sluice.cli.config.ConfigKey;
import io.sluice.cli.config.Durations;
import io.sluice.cli.config.KeyCatalog;
import io.sluice.cli.config.Secret;
import io.sluice.cli.config.Sizes;
import io.sluice.cli.config.Types;
import io.sluice.core.FailureOutcome;
import io.sluice.core.OutOfRangePolicy;
import io.sluice.core.StartPosition;
import io.sluice.storage.format.FormatConfig;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import java.util.regex.Pattern;

/**
 * Every key of a pipeline file, documented once, here. {@code docs/configuration.md} is generated from this class
 * ({@code ./sluice docs > docs/configuration.md}) and a test fails when it is stale. A default that the engine or the
 * sink has is taken from them ({@link Defaults}), not written again; only the command's own defaults are written here.
 *
 * <p>Immutable constants.
 */
public final class PipelineKeys {

    private PipelineKeys() {
    }

    // ---- source --------------------------------------------------------------------------------------------------

    /** The source cluster's connection keys and consumer settings, as every cluster section has them. */
    public static final ClusterKeys SOURCE_CLUSTER = ClusterKeys.of("source", "consumer",
            ConsumerConfig.configDef(), Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "set it with source.bootstrap-servers",
                    ConsumerConfig.GROUP_ID_CONFIG, "set it with source.group",
                    ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "Sluice commits offsets itself, after the files are safe",
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "use source.start and source.on-offset-out-of-range",
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, "an archive stores the bytes as they are",
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, "an archive stores the bytes as they are"),
            "e.g. `session.timeout.ms`, `client.rack`");

    public static final ConfigKey<List<String>> BOOTSTRAP_SERVERS = SOURCE_CLUSTER.bootstrapServers();
    public static final ConfigKey<List<String>> TOPICS = ConfigKey.optional("source.topics", Types.LIST,
            "The topics to archive. Give either `topics` or `pattern`.");
    public static final ConfigKey<Pattern> PATTERN = ConfigKey.optional("source.pattern", Types.REGEX,
            "A regular expression that whole topic names must match, instead of `topics`. It is resolved when the "
                    + "pipeline starts: a matching topic created later is picked up at the next start.");
    public static final ConfigKey<String> GROUP = ConfigKey.required("source.group", Types.STRING,
            "The consumer group whose committed offsets are the pipeline's progress. Every instance started with the "
                    + "same group shares the partitions: that is how a pipeline scales past one machine.");
    public static final ConfigKey<StartPosition> START = ConfigKey.withDefault("source.start",
            Types.choice(StartPosition.class), Types.name(Defaults.ENGINE.startPosition()),
            "Where to begin in partitions the group has never committed: `earliest` (every retained record) or "
                    + "`latest` (only records that arrive from now on).");
    public static final ConfigKey<OutOfRangePolicy> ON_OUT_OF_RANGE = ConfigKey.withDefault(
            "source.on-offset-out-of-range", Types.choice(OutOfRangePolicy.class),
            Types.name(Defaults.ENGINE.outOfRangePolicy()),
            "What to do when the committed offset is no longer in the log, because retention deleted records before "
                    + "they were archived, or the topic was created again since the commit: `fail` names the lost "
                    + "range and stops; `stop-partition` names it and stops reading that partition alone (its "
                    + "progress stays where the loss begins, the others go on, and the run ends failed naming the "
                    + "loss); `earliest` or `latest` log the lost range loudly and go on from there, but never back: "
                    + "a log that now ends below the position (reset, or truncated) stops the run, for a reset of "
                    + "the group's offsets.");

    public static final ConfigKey<Long> MAX_READ_RATE = ConfigKey.optional("source.max-read-rate", Types.rate(1024),
            "Read at most this many bytes a second from the brokers (keys, values and headers), e.g. `50MB/s`, so that "
                    + "reading a big topic from the beginning does not starve the brokers' other clients: partitions "
                    + "pause while the pipeline is ahead of the rate. Without it there is no limit. `sluice run "
                    + "--max-read-rate` overrides it for one run.");

    public static final ConfigKey<List<Types.Property>> KAFKA_PROPERTIES = SOURCE_CLUSTER.properties();

    // ---- processing ----------------------------------------------------------------------------------------------

    /**
     * A default of the command's own, not the engine's: the engine's counts records in flight for any handler, and
     * here it counts the workers that each write one partition at a time.
     */
    public static final ConfigKey<Integer> CONCURRENCY = ConfigKey.withDefault("processing.concurrency",
            Types.integer(1, 10_000), "16",
            "How many partitions are written at the same time (worker threads). Each partition is archived in "
                    + "offset order, by one worker at a time.");
    public static final ConfigKey<Integer> COMPRESSING_THREADS = ConfigKey.computed("processing.compressing-threads",
            Types.integer(0, 1_024), "the number of cores",
            "Threads that compress JSON Lines and raw files, shared by all partitions, while the workers encode the "
                    + "next records: a partition then uses more than one core. `0` compresses on the workers, as "
                    + "Kafka Connect's sinks do. Parquet and Avro compress inside their writers, on the workers.");
    public static final ConfigKey<Long> MEMORY_BUDGET = ConfigKey.computed("processing.memory-budget",
            Types.size(1L << 20), "what the heap holds: (heap - " + HeapBudget.RESERVE_MIB + " MiB) / 2, at most `"
                    + Sizes.format(Defaults.ENGINE.memoryBudgetBytes()) + "`",
            "Bytes of records queued and being written, plus the files' output buffers. A partition over its share "
                    + "is paused until it drains. Half of it bounds the open files' buffers: past that, the partition "
                    + "whose files hold the most rolls early. The heap (`-Xmx`, e.g. `SLUICE_JAVA_OPTS=-Xmx2g`) must "
                    + "hold twice the budget plus " + HeapBudget.RESERVE_MIB + " MiB, or the pipeline is refused with "
                    + "the numbers; at least 8 MiB.");
    public static final ConfigKey<Duration> COMMIT_INTERVAL = ConfigKey.withDefault("processing.commit-interval",
            Types.duration(Duration.ofMillis(10)), Durations.format(Defaults.ENGINE.commitInterval()),
            "How often progress is committed: files sealed since the last commit are listed in a manifest, the "
                    + "offset is committed to Kafka, then the files are published.");
    public static final ConfigKey<Duration> DRAIN_TIMEOUT = ConfigKey.withDefault("processing.drain-timeout",
            Types.duration(Duration.ofSeconds(1)), Durations.format(Defaults.ENGINE.drainTimeout()),
            "On shutdown (SIGTERM, Ctrl-C) or a rebalance, how long to wait for records being written before "
                    + "committing what is done.");
    public static final ConfigKey<Integer> MAX_ATTEMPTS = ConfigKey.withDefault("processing.max-attempts",
            Types.integer(1, 100), String.valueOf(Defaults.ENGINE.maxAttempts()),
            "Attempts at writing a record before `on-failure` applies. Records that can never be written (not JSON, "
                    + "missing a field the template needs) fail at once, without retries.");
    public static final ConfigKey<Duration> RETRY_BACKOFF = ConfigKey.withDefault("processing.retry-backoff",
            Types.duration(Duration.ZERO), Durations.format(Defaults.ENGINE.initialBackoff()),
            "The wait before the first retry; it doubles at each attempt (with ±20% jitter), up to "
                    + "`retry-backoff-max`.");
    public static final ConfigKey<Duration> RETRY_BACKOFF_MAX = ConfigKey.withDefault("processing.retry-backoff-max",
            Types.duration(Duration.ZERO), Durations.format(Defaults.ENGINE.maxBackoff()),
            "The longest wait between retries.");
    public static final ConfigKey<FailureOutcome> ON_FAILURE = ConfigKey.computed("processing.on-failure",
            Types.choice(FailureOutcome.class), "`dead-letter` when `dead-letter-topic` is set, otherwise `"
                    + Types.name(Defaults.ENGINE.failureOutcome()) + "`",
            "What happens to a record that could not be written: `dead-letter` publishes it to the dead-letter "
                    + "topic with the reason in its headers; `skip` logs and counts it; `stop` commits what is done "
                    + "before it and exits with status 1.");
    public static final ConfigKey<String> DEAD_LETTER_TOPIC = ConfigKey.optional("processing.dead-letter-topic",
            Types.STRING,
            "The topic (it must exist, in the source cluster) for records that could not be written, with the error, "
                    + "the number of attempts, and their source topic, partition and offset in headers. With "
                    + "`sink.delivery: exactly-once` each dead letter is written in a transaction together with the "
                    + "commit of its source offset, so a read_committed reader sees each rejected record once "
                    + "whatever crashes (docs/exactly-once.md); with at-least-once it is written at once and may "
                    + "repeat after a crash.");
    public static final ConfigKey<Duration> DEAD_LETTER_RETRY_FOR = ConfigKey.withDefault(
            "processing.dead-letter-retry-for", Types.duration(Duration.ofSeconds(15)),
            Durations.format(Defaults.ENGINE.deadLetterRetryFor()),
            "How long one dead letter waits for the brokers (for the topic's metadata, then again for the "
                    + "acknowledgement) before the pipeline stops on it (exit status 1; a restart resumes from the "
                    + "commits). The consumer rides out a broker restart; this lets the dead letters do the same. "
                    + "While it waits, the record's partition waits and the memory budget pauses fetching.");

    // ---- metrics -------------------------------------------------------------------------------------------------

    public static final ConfigKey<Integer> METRICS_PORT = ConfigKey.optional("metrics.port", Types.integer(0, 65_535),
            "Serve `/metrics` (Prometheus: the engine's and the sink's meters), `/health` (liveness) and `/ready` "
                    + "(assigned and consuming) on this port while the pipeline runs; `0` takes any free port and logs "
                    + "it. Without it there is no endpoint. `sluice run --metrics-port` overrides it.");
    public static final ConfigKey<String> METRICS_ADDRESS = ConfigKey.withDefault("metrics.address", Types.STRING,
            "127.0.0.1",
            "The address the endpoint listens on: `0.0.0.0` for every interface. Metrics name topics and groups, so "
                    + "the default keeps them on this machine. `sluice run --metrics-address` overrides it.");

    // ---- sink ----------------------------------------------------------------------------------------------------

    public static final ConfigKey<String> LOCATION = ConfigKey.required("sink.location", Types.STRING,
            "Where the archive goes. A folder (`/data/archive` or `file:///data/archive`; a relative folder is from "
                    + "the pipeline file's folder), `s3://bucket/prefix/`, or `hdfs://namenode:8020/path`.");
    public static final ConfigKey<String> TEMPLATE = ConfigKey.withDefault("sink.template", Types.STRING,
            "{topic}/dt={ts:yyyy-MM-dd}/hr={ts:HH}/",
            "The folder of each record under the location, ending with `/`. Placeholders: `{topic}`, "
                    + "`{partition}`, `{ts:<pattern>}` (the record's time in `time-zone`, as a java.time pattern), "
                    + "`{value.<field>}` (a field of the value: a string, enum, number or boolean; dots reach into "
                    + "nested objects or records). With Avro values, each field is checked against `schema` when the "
                    + "pipeline is validated. A value becomes a folder name percent-encoded (all but letters, digits, "
                    + "`.`, `_` and `-`; `..` too, and a first folder `_sluice`, the archive's own); a folder name longer than "
                    + "a file system takes (255 bytes, locally and on HDFS) fails its record, and `on-failure` "
                    + "applies.");
    public static final ConfigKey<String> TIME_FIELD = ConfigKey.optional("sink.time-field", Types.STRING,
            "A field of the value that holds the record's time, used by `{ts:...}` instead of the Kafka timestamp: "
                    + "epoch milliseconds or ISO-8601 text with an offset; with Avro values also a `long` with the "
                    + "logical type `timestamp-millis` or `timestamp-micros`.");
    public static final ConfigKey<ZoneId> TIME_ZONE = ConfigKey.withDefault("sink.time-zone", Types.ZONE, "UTC",
            "The time zone of `{ts:...}` in the template.");
    public static final ConfigKey<String> DEFAULT_BUCKET = ConfigKey.optional("sink.default-bucket", Types.STRING,
            "The folder name to use when a field the template needs is missing or unreadable, or `{ts:...}` meets a "
                    + "record without a timestamp (-1). Without it such a record fails, and `on-failure` applies (the "
                    + "dead-letter topic, with the reason).");
    public static final ConfigKey<String> FORMAT = ConfigKey.withDefault("sink.format",
            Types.oneOf(FileFormats.names()), "jsonl",
            "The file format; the table below lists each with its codecs and keys.");
    public static final ConfigKey<String> CODEC = ConfigKey.computed("sink.codec", Types.STRING,
            "the format's default codec (table below)", "The compression of the files; each format has its own set.");
    public static final ConfigKey<String> SCHEMA = ConfigKey.optional("sink.schema", Types.STRING,
            "An Avro schema file (`.avsc`) of the values, a record: its fields become the columns of `parquet` "
                    + "and `avro` files, after the Kafka coordinates, and a JSON value that does not match it is "
                    + "rejected with the field and the reason (docs/formats.md). With Avro values it is also the "
                    + "schema they were written with. A relative path is from the pipeline file's folder.");
    public static final ConfigKey<String> VALUE_ENCODING = ConfigKey.withDefault("sink.value-encoding",
            Types.oneOf(FileFormats.VALUE_ENCODINGS), Defaults.JSONL.valueEncoding(),
            "How the record values are encoded: `json`; `avro` (Avro binary written with `schema`); or "
                    + "`avro-confluent` (the Confluent wire format: a zero byte and a 4-byte schema id, then Avro "
                    + "binary). There is no schema registry here: the id is not looked up, and every value is read "
                    + "with `schema`. Avro values go to `parquet` and `avro` files as the decoded records, or to `raw` "
                    + "files as they are; a value that cannot be decoded is rejected with the field and the byte "
                    + "where it fails.");
    public static final ConfigKey<Boolean> KAFKA_KEY = ConfigKey.withDefault("sink.kafka-key", Types.BOOLEAN,
            String.valueOf(Defaults.JSONL.keys()),
            "Store each record's key with it (`kafka_key`), besides its topic, partition, offset and timestamp, "
                    + "which are always stored (raw files store the values only).");
    public static final ConfigKey<Boolean> KAFKA_HEADERS = ConfigKey.withDefault("sink.kafka-headers", Types.BOOLEAN,
            String.valueOf(Defaults.JSONL.headers()), "Store each record's headers with it (`kafka_headers`).");
    public static final ConfigKey<Long> ROW_GROUP_SIZE = ConfigKey.withDefault("sink.parquet.row-group-size",
            Types.size(64L << 10), Sizes.format(FormatConfig.DEFAULT_ROW_GROUP_BYTES),
            "The bytes of rows a Parquet file holds in memory before writing them out as a row group (at most "
                    + "1GiB). Every open file holds up to this much plus the writer's own heap (4KiB per column, 16KiB "
                    + "per dictionary-encoded column and a 64KiB page buffer: about 140KiB for 7 columns), within the "
                    + "memory budget: lower it for layouts with many open files, raise it for fewer, larger row "
                    + "groups that read faster.");
    public static final ConfigKey<String> RAW_DELIMITER = ConfigKey.withDefault("sink.raw.delimiter",
            Types.oneOf(FileFormats.RAW_DELIMITERS), Defaults.RAW.delimiter(),
            "How raw files separate values: `newline` (each value, then `\\n`; values that contain a newline and "
                    + "tombstones are rejected) or `length` (a 4-byte big-endian length before each value; any bytes).");
    public static final ConfigKey<Delivery> DELIVERY = ConfigKey.withDefault("sink.delivery",
            Types.choice(Delivery.class), "exactly-once",
            "`exactly-once`: files are staged, listed in a manifest that the Kafka commit names, and published only "
                    + "after that commit succeeds, so each offset is in exactly one visible file whatever crashes. "
                    + "`at-least-once`: files are published, then the offset committed; cheaper, but a crash in "
                    + "between writes those records again.");

    public static final ConfigKey<Long> MAX_BYTES = ConfigKey.withDefault("sink.rolling.max-bytes", Types.size(1L << 10),
            Sizes.format(Defaults.ROLLING.maxBytes()),
            "A file is sealed when it reaches this size, compressed, as written.");
    public static final ConfigKey<Long> MAX_RECORDS = ConfigKey.withDefault("sink.rolling.max-records",
            Types.count(1, Long.MAX_VALUE), String.valueOf(Defaults.ROLLING.maxRecords()),
            "A file is sealed when it holds this many records.");
    public static final ConfigKey<Duration> MAX_AGE = ConfigKey.withDefault("sink.rolling.max-age",
            Types.duration(Duration.ofSeconds(1)), Durations.format(Defaults.ROLLING.maxAge()),
            "A partition's files are sealed when the oldest is this old, even when no more records arrive.");
    public static final ConfigKey<Integer> MAX_OPEN_FILES = ConfigKey.withDefault("sink.rolling.max-open-files",
            Types.integer(1, 10_000), String.valueOf(Defaults.ROLLING.maxOpenFiles()),
            "Files open at once per partition. A record that needs one more first seals the file written least "
                    + "recently, alone: it is committed with the partition's next roll, and the others stay open, so "
                    + "a late record does not cut the current files. Set it at or above the folders the data spans "
                    + "at a time (hours of lateness × the values of the other template fields).");

    public static final ConfigKey<String> S3_REGION = ConfigKey.withDefault("sink.s3.region", Types.STRING,
            Defaults.S3.region(), "The bucket's region.");
    public static final ConfigKey<String> S3_ENDPOINT = ConfigKey.optional("sink.s3.endpoint", Types.STRING,
            "The URL of an S3-compatible store (MinIO, Ceph, s3proxy...) instead of AWS; path-style addressing is "
                    + "used with it.");
    public static final ConfigKey<String> S3_ACCESS_KEY = ConfigKey.optional("sink.s3.access-key", Types.STRING,
            "With `secret-key`: static credentials. Without both, the AWS default chain applies (environment, "
                    + "profile, instance or container role).");
    public static final ConfigKey<Secret> S3_SECRET_KEY = ConfigKey.optional("sink.s3.secret-key", Types.SECRET,
            "The secret of `access-key`.");
    public static final ConfigKey<Long> S3_PART_SIZE = ConfigKey.withDefault("sink.s3.part-size",
            Types.size(5L << 20), Sizes.format(Defaults.S3.partSize()),
            "The part size of multipart uploads. Parts accumulate on local disk, in `spool-directory`, so each open "
                    + "file holds about this much disk, not heap; files smaller than a part are uploaded whole.");
    public static final ConfigKey<String> S3_SPOOL_DIRECTORY = ConfigKey.computed("sink.s3.spool-directory",
            Types.STRING, "`" + Defaults.S3.spoolDirectory().getFileName() + "` in the JVM's temporary folder",
            "The local folder where parts accumulate before upload: up to `part-size` times the open files. What "
                    + "a killed run left there is removed at start. A relative path is from the pipeline file's "
                    + "folder.");
    public static final ConfigKey<Duration> S3_RETRY_FOR = ConfigKey.withDefault("sink.s3.retry-for",
            Types.duration(Duration.ofSeconds(1)), Durations.format(Defaults.S3.retryFor()),
            "How long one request is retried (with backoff) on server errors, throttling and lost connections before "
                    + "the store counts as down; `sluice run` then starts again from its last commit after a pause (5 s, "
                    + "doubling up to a minute) if the store took a file before, and otherwise, or in a bounded run "
                    + "(`--until-end`), stops (exit status 1; a restart resumes from the commits). While it retries, "
                    + "the partition waits and the memory budget pauses fetching. "
                    + "`validate --connect` retries for at most 20 s and `verify` for at most a minute, whatever this "
                    + "says: a person waits on them.");

    public static final ConfigKey<List<Types.Property>> HDFS_PROPERTIES = ConfigKey.optional("sink.hdfs.properties",
            Types.PROPERTIES, "Hadoop client settings, e.g. `dfs.client.use.datanode.hostname: true`. Sluice's own "
                    + "defaults, which these override: `dfs.client.write.max-packets-in-flight: 16` (an open file "
                    + "holds at most 16 packets) and `dfs.client.block.write.locateFollowingBlock.initial.delay.ms: "
                    + "50` with `dfs.client.block.write.locateFollowingBlock.retries: 8` (a close asks the NameNode "
                    + "again after 50 ms, not Hadoop's 400).");

    /** The sections and keys of a pipeline file, in reference order. */
    public static final KeyCatalog CATALOG = new KeyCatalog(KeyCatalog.concat(
            List.of(new KeyCatalog.Section("", "A pipeline file")),
            SOURCE_CLUSTER.sections("the Kafka topics to read, and how to connect"),
            List.of(new KeyCatalog.Section("processing", "parallelism, memory, commits and failures"),
                    new KeyCatalog.Section("metrics", "the HTTP endpoint of a running pipeline"),
                    new KeyCatalog.Section("sink", "where and how records are archived"),
                    new KeyCatalog.Section("sink.rolling", "when files are sealed; all open files of a partition "
                            + "roll together, at one offset"),
                    new KeyCatalog.Section("sink.parquet", "settings of the `parquet` format"),
                    new KeyCatalog.Section("sink.raw", "settings of the `raw` format"),
                    new KeyCatalog.Section("sink.s3", "settings of `s3://` locations"),
                    new KeyCatalog.Section("sink.hdfs", "settings of `hdfs://` locations"))),
            KeyCatalog.concat(
                    List.of(BOOTSTRAP_SERVERS, TOPICS, PATTERN, GROUP, START, ON_OUT_OF_RANGE, MAX_READ_RATE),
                    SOURCE_CLUSTER.connectionKeys(),
                    List.of(KAFKA_PROPERTIES,
                            CONCURRENCY, COMPRESSING_THREADS, MEMORY_BUDGET, COMMIT_INTERVAL, DRAIN_TIMEOUT,
                            MAX_ATTEMPTS, RETRY_BACKOFF, RETRY_BACKOFF_MAX, ON_FAILURE, DEAD_LETTER_TOPIC,
                            DEAD_LETTER_RETRY_FOR, METRICS_PORT, METRICS_ADDRESS,
                            LOCATION, TEMPLATE, TIME_FIELD, TIME_ZONE, DEFAULT_BUCKET, FORMAT, CODEC, SCHEMA,
                            VALUE_ENCODING, KAFKA_KEY, KAFKA_HEADERS, DELIVERY,
                            MAX_BYTES, MAX_RECORDS, MAX_AGE, MAX_OPEN_FILES,
                            ROW_GROUP_SIZE, RAW_DELIMITER,
                            S3_REGION, S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_PART_SIZE, S3_SPOOL_DIRECTORY,
                            S3_RETRY_FOR,
                            HDFS_PROPERTIES)));
}
