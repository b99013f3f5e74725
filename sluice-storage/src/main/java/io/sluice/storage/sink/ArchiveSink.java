package io.sluice.storage.sink;

import io.sluice.core.sink.Sink;
import io.sluice.core.sink.SinkCheckpoint;
import io.sluice.storage.backend.StorageBackend;
import io.sluice.storage.backend.StoreUnreachableException;
import io.sluice.storage.codec.Compressors;
import io.sluice.storage.format.FileFormat;
import io.sluice.storage.layout.Layout;
import io.sluice.storage.rolling.RollDecision;
import io.sluice.storage.rolling.RollingPolicy;
import io.sluice.storage.value.InvalidFieldPathException;
import io.sluice.storage.value.ValueReader;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * Archives records as files: laid out by a {@link Layout}, written in a {@link FileFormat}, rolled by a
 * {@link RollingPolicy} (every roll decided by a {@link RollDecision}), stored through a {@link StorageBackend}.
 * Exactly once (files published only after the Kafka commit naming their manifest) or at least once (published
 * before the commit, no manifests); see {@code docs/exactly-once.md}.
 *
 * <p>The heap its open files hold is limited sink-wide ({@code maxBufferedBytes}): over the limit, the partition
 * holding the most rolls early ({@link RollDecision}, from the account {@link MemoryPressure} keeps,
 * {@code docs/rolling.md}). A partition also rolls when the engine asks ({@link #relieve}): paused for its memory
 * budget, with every record written, by what its open files hold.
 *
 * <p>A roll's and a publication's storage calls, one per file, run side by side on a pool the partitions share
 * ({@link StorageCalls}). Stream-compressed files (JSON Lines, raw) are compressed on another shared pool, by default
 * one thread per core, while the lanes encode the next rows ({@link Compressors}): a partition uses more than one
 * core.
 *
 * <p>Each value is decoded once, in the format's value encoding (JSON or Avro), for the layout's fields and for the
 * writer; a value that is not in that encoding is rejected with the reason (the engine dead-letters it).
 *
 * <p>Threading: the engine calls each partition's methods one at a time ({@link Sink}); partitions run in parallel,
 * each with its own {@link PartitionArchive}. {@link #counters} and {@link #bufferedBytes()} from any thread.
 */
public final class ArchiveSink implements Sink {

    /** As long as the mirror's grace for a silent target: longer than any answer of a store that is there. */
    static final Duration GIVE_UP_DRAIN_AFTER = Duration.ofSeconds(15);

    private final StorageBackend backend;
    private final Layout layout;
    private final FileFormat format;
    private final RollDecision rolls;
    private final boolean exactlyOnce;
    private final Duration maxAge;
    private final Map<TopicPartition, PartitionArchive> partitions = new ConcurrentHashMap<>();
    private final MemoryPressure pressure;
    private final StorageCalls storageCalls = new StorageCalls(StorageCalls.DEFAULT_THREADS);
    private final Compressors compressors;
    private final int foldManifestsAfter;
    private final ArchiveOwner owner;
    /** Rolls by cause, files sealed and published. */
    private final ArchiveCounters counters = new ArchiveCounters();

    /**
     * The default number of threads compressing stream-framed files: one per core. The lanes and the consumer keep
     * busy besides, so more would only queue.
     */
    public static final int DEFAULT_COMPRESSING_THREADS = Runtime.getRuntime().availableProcessors();

    /**
     * By default, manifests below the committed one are folded into a summary 16 at a time ({@code docs/exactly-once.md}
     * "How long manifests stay"): a partition keeps about 16 manifests and 8 summaries, however long it runs.
     */
    public static final int DEFAULT_FOLD_MANIFESTS_AFTER = 16;

    /** The default limit on the heap open files hold: half the engine's default memory budget. */
    public static final long DEFAULT_MAX_BUFFERED_BYTES = 128L * 1024 * 1024;

    /** With {@link #DEFAULT_MAX_BUFFERED_BYTES}. */
    public ArchiveSink(StorageBackend backend, Layout layout, FileFormat format, RollingPolicy rolling,
            boolean exactlyOnce) {
        this(backend, layout, format, rolling, exactlyOnce, DEFAULT_MAX_BUFFERED_BYTES);
    }

    /**
     * @param maxBufferedBytes the heap all open files together may hold before the partition holding the most rolls
     *                         early; keep it well under the engine's memory budget, which counts these bytes too
     */
    public ArchiveSink(StorageBackend backend, Layout layout, FileFormat format, RollingPolicy rolling,
            boolean exactlyOnce, long maxBufferedBytes) {
        this(backend, layout, format, rolling, exactlyOnce, maxBufferedBytes, DEFAULT_COMPRESSING_THREADS);
    }

    /**
     * @param maxBufferedBytes   as above
     * @param compressingThreads threads that compress JSON Lines and raw files while the lanes encode the next rows,
     *                           shared by all partitions; 0 compresses on the lanes, as Kafka Connect's sinks do on
     *                           their task threads. Parquet and Avro compress inside their writers, on the lanes
     */
    public ArchiveSink(StorageBackend backend, Layout layout, FileFormat format, RollingPolicy rolling,
            boolean exactlyOnce, long maxBufferedBytes, int compressingThreads) {
        this(backend, layout, format, rolling, exactlyOnce, maxBufferedBytes, compressingThreads,
                DEFAULT_FOLD_MANIFESTS_AFTER);
    }

    /**
     * @param maxBufferedBytes   as above
     * @param compressingThreads as above
     * @param foldManifestsAfter how many manifests below a partition's committed one are folded into a summary at once
     *                           (and removed); 0 keeps every manifest
     */
    public ArchiveSink(StorageBackend backend, Layout layout, FileFormat format, RollingPolicy rolling,
            boolean exactlyOnce, long maxBufferedBytes, int compressingThreads, int foldManifestsAfter) {
        this(backend, layout, format, rolling, exactlyOnce, maxBufferedBytes, compressingThreads, foldManifestsAfter,
                null);
    }

    /**
     * @param maxBufferedBytes   as above
     * @param compressingThreads as above
     * @param foldManifestsAfter as above
     * @param group              the consumer group whose archive this is: a topic another group archives into the same
     *                           location is refused at its first partition ({@link ArchiveOwner}); null claims nothing
     */
    public ArchiveSink(StorageBackend backend, Layout layout, FileFormat format, RollingPolicy rolling,
            boolean exactlyOnce, long maxBufferedBytes, int compressingThreads, int foldManifestsAfter, String group) {
        if (compressingThreads < 0) {
            throw new IllegalArgumentException("compressing threads must be 0 (compress on the lanes) or more, not "
                    + compressingThreads);
        }
        valueReader(layout, format); // a field the values can never have fails here, not at the first assignment
        this.backend = backend;
        this.layout = layout;
        this.format = format;
        this.rolls = new RollDecision(rolling, maxBufferedBytes);
        this.maxAge = rolling.maxAge();
        this.exactlyOnce = exactlyOnce;
        this.pressure = new MemoryPressure(partitions.values());
        if (foldManifestsAfter < 0) {
            throw new IllegalArgumentException("manifests are folded after 1 or more, or never (0), not "
                    + foldManifestsAfter);
        }
        this.foldManifestsAfter = foldManifestsAfter;
        this.owner = new ArchiveOwner(backend, group);
        this.compressors = compressingThreads == 0 ? Compressors.INLINE : Compressors.offloaded(compressingThreads);
    }

    /**
     * A reader of the values for this layout and format, for one partition's lane.
     *
     * @throws InvalidFieldPathException when the layout reads a field the values can never have (Avro values, and
     *     JSON values written as rows of a schema, are checked against it): call it to validate a configuration before
     *     building the sink
     */
    public static ValueReader valueReader(Layout layout, FileFormat format) {
        format.checkFieldPaths(layout.fieldPaths());
        return format.parsesValues() ? format.valueEncoding().fieldReader(layout.fieldPaths())
                : format.valueEncoding().reader(layout.fieldPaths(), format.decodesValues());
    }

    @Override
    public void open(TopicPartition partition, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws Exception {
        refuseLongNames(partition);
        PartitionArchive archive = new PartitionArchive(partition, topicId.toString(), backend, layout, format, rolls,
                exactlyOnce, counters, pressure, storageCalls, compressors, foldManifestsAfter);
        try {
            // before its recovery lists any staged file to remove: another group's files in progress are not leftovers
            owner.claim(partition.topic(), topicId.toString());
            archive.recover(committedOffset, committedData.filter(d -> !d.isEmpty()));
        } catch (IOException e) {
            Optional<String> away = e instanceof StoreUnreachableException ? Optional.empty() : backend.outage(e);
            if (away.isPresent()) { // Hadoop's words for a NameNode that is down were two lines of addresses and a URL
                throw new StoreUnreachableException("cannot recover the archive of " + partition + " in "
                        + backend.describe() + ": " + StoreAway.words(away.get()), e);
            }
            throw e;
        }
        partitions.put(partition, archive);
    }

    /**
     * A topic whose file names the store cannot take ({@code <topic>+<partition>+<offset><extension>}, up to 19 digits
     * of offset): said before anything is written, where the run failed at its first roll with "File name too long",
     * and every start the same (a new user's run: a topic of 95 characters was still fine; Kafka takes 249).
     */
    private void refuseLongNames(TopicPartition partition) {
        String longest = partition.topic() + "+" + partition.partition() + "+" + Long.MAX_VALUE + format.extension();
        int bytes = longest.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > backend.maxNameBytes()) {
            throw new IllegalStateException("the files of topic " + partition.topic() + " (a name of "
                    + partition.topic().length() + " characters) would have names of up to " + bytes + " bytes, and "
                    + backend.describe() + " takes at most " + backend.maxNameBytes() + " in one name: archive it to "
                    + "an object store (s3://), or mirror it to a topic of a shorter name and archive that");
        }
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) throws Exception {
        archive(new TopicPartition(record.topic(), record.partition())).write(record);
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition partition, boolean last) throws Exception {
        return archive(partition).checkpoint(last);
    }

    /** Seals the partition's open files now: the engine needs their heap and no write will come to roll them. */
    @Override
    public void relieve(TopicPartition partition) throws Exception {
        archive(partition).relieve();
    }

    @Override
    public void committed(TopicPartition partition, SinkCheckpoint checkpoint) throws Exception {
        archive(partition).committed(checkpoint);
    }

    @Override
    public void notCommitted(TopicPartition partition, SinkCheckpoint checkpoint, boolean certain) throws Exception {
        archive(partition).notCommitted(checkpoint, certain);
    }

    @Override
    public void close(TopicPartition partition, boolean lost) {
        PartitionArchive archive = partitions.remove(partition);
        if (archive != null) {
            archive.close(lost);
        }
    }

    /** As configured: an at-least-once archive publishes files before their commit, and its dead letters at once. */
    @Override
    public boolean exactlyOnce() {
        return exactlyOnce;
    }

    @Override
    public long bufferedBytes(TopicPartition partition) {
        PartitionArchive archive = partitions.get(partition);
        return archive == null ? 0 : archive.bufferedBytes();
    }

    /**
     * The store has not answered for {@link #GIVE_UP_DRAIN_AFTER} while requests wait: a stop asked for meanwhile ends
     * without its last commit (what was not committed is archived again after a restart) instead of waiting out the
     * retries, the drain timeout at each step (a new user's run: SIGTERM with S3 down took 100 s, and its words named
     * neither S3 nor the other partitions that waited).
     */
    @Override
    public Optional<String> unableToFinish() {
        return backend.silentFor().filter(d -> d.compareTo(GIVE_UP_DRAIN_AFTER) >= 0).map(d -> "the store "
                + backend.describe() + " has not answered for " + d.toSeconds() + " s");
    }

    /**
     * Whether the engine's {@code failure} was the store being away ({@link StorageBackend#outage}): a run that is a
     * service starts again once it answers, from the last commit.
     */
    public boolean failedByStoreOutage(Throwable failure) {
        return backend.outage(failure).isPresent();
    }

    /**
     * How long the store has not answered while requests waited, once that is an outage ({@link
     * StorageBackend#silentFor}): for the progress line.
     */
    public Optional<Duration> storeSilentFor() {
        return backend.silentFor();
    }

    /** Files the rolls under way are sealing now (open files and held folders written as files), over all partitions. */
    public long filesSealingNow() {
        return counters.sealingNow();
    }

    /** Rolls by cause, files sealed and published so far, over all partitions. */
    public ArchiveCounts counters() {
        return counters.snapshot();
    }

    /**
     * How long until the oldest open file of any partition reaches {@code rolling.max-age}, when the age rolls it and
     * the next commit makes its records durable (a size, record or memory roll may come sooner); empty with no file
     * open. An estimate for the words of a run's progress, from any thread.
     */
    public Optional<Duration> untilAgeRoll() {
        long now = System.nanoTime();
        long soonest = Long.MAX_VALUE;
        for (PartitionArchive archive : partitions.values()) {
            OptionalLong opened = archive.oldestOpenNanos();
            if (opened.isPresent()) {
                soonest = Math.min(soonest, Math.max(0, opened.getAsLong() + maxAge.toNanos() - now));
            }
        }
        return soonest == Long.MAX_VALUE ? Optional.empty() : Optional.of(Duration.ofNanos(soonest));
    }

    /** Heap held by all open files of the sink. */
    public long bufferedBytes() {
        return pressure.total();
    }

    @Override
    public void close() throws Exception {
        storageCalls.close();
        compressors.close();
        backend.close();
    }

    private PartitionArchive archive(TopicPartition partition) {
        PartitionArchive archive = partitions.get(partition);
        if (archive == null) {
            throw new IllegalStateException(partition + " is not open in this sink");
        }
        return archive;
    }
}
