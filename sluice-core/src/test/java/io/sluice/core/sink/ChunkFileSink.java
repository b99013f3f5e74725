package io.sluice.core.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A small exactly-once file sink that exercises the engine's sink contract: each checkpoint writes the records since
 * the last one into a hidden {@code .pending} chunk file (fsync'd), and names in the commit every chunk not yet known
 * to be published; a committed checkpoint renames its chunks visible. A commit that fails leaves its chunks to the
 * next checkpoint, since the engine goes on from its offset; at close, the chunks no commit can name any more (never
 * in a commit whose outcome is unknown) are deleted. {@link #open} finishes the renames a crash interrupted and
 * deletes pending chunks no commit names. Visible chunks then hold every offset exactly once. The storage module's
 * sinks are the real thing.
 *
 * <p>Threading: as {@link Sink}: one call at a time per partition; partitions in parallel (per-partition state in
 * concurrent maps, each partition's entries touched by its own calls only).
 */
final class ChunkFileSink implements Sink {

    private final Path dir;
    private final Map<TopicPartition, List<String>> buffers = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> next = new ConcurrentHashMap<>();
    /** Chunks written at checkpoints and not yet known to be published, oldest first. */
    private final Map<TopicPartition, Set<String>> unpublished = new ConcurrentHashMap<>();
    /** Of those, the chunks named by a commit whose outcome is unknown: it may be the committed one. */
    private final Map<TopicPartition, Set<String>> maybeCommitted = new ConcurrentHashMap<>();
    final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

    ChunkFileSink(Path dir) {
        this.dir = dir;
    }

    @Override
    public void open(TopicPartition tp, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws IOException {
        calls.add("open " + tp + " " + committedOffset + " " + committedData.orElse("-"));
        Path partitionDir = Files.createDirectories(dir.resolve(tp.toString()));
        if (committedData.isPresent()) {
            publish(tp, committedData.get()); // idempotent: a crash may have come between commit and rename
        }
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".pending")).toList()) {
                Files.delete(f); // written for a checkpoint that was never committed
            }
        }
        buffers.put(tp, new ArrayList<>());
        next.put(tp, committedOffset);
        unpublished.put(tp, new LinkedHashSet<>());
        maybeCommitted.put(tp, new HashSet<>());
    }

    @Override
    public void write(ConsumerRecord<byte[], byte[]> record) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        buffers.get(tp).add(record.offset() + " " + new String(record.value(), StandardCharsets.UTF_8));
        next.put(tp, record.offset() + 1);
    }

    @Override
    public SinkCheckpoint checkpoint(TopicPartition tp, boolean last) throws IOException {
        List<String> lines = buffers.get(tp);
        long end = next.get(tp);
        // every checkpoint is a call, the empty ones too: the engine may commit one before the first fetch arrives
        calls.add("checkpoint " + tp + " " + end + (last ? " last" : ""));
        if (!lines.isEmpty()) {
            String chunk = "chunk-" + end;
            Path pending = pending(tp, chunk);
            Files.write(pending, lines, StandardCharsets.UTF_8);
            try (FileChannel channel = FileChannel.open(pending, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            lines.clear();
            unpublished.get(tp).add(chunk);
        }
        // the chunks of refused commits too: the engine goes on from their offsets, so they hold the only copy
        return new SinkCheckpoint(end, String.join(",", unpublished.get(tp)));
    }

    @Override
    public void committed(TopicPartition tp, SinkCheckpoint checkpoint) throws IOException {
        calls.add("committed " + tp + " " + checkpoint.offset());
        publish(tp, checkpoint.data());
        List<String> chunks = chunks(checkpoint.data());
        unpublished.get(tp).removeAll(chunks);
        maybeCommitted.get(tp).removeAll(chunks);
    }

    @Override
    public void notCommitted(TopicPartition tp, SinkCheckpoint checkpoint, boolean certain) throws IOException {
        calls.add("not committed " + tp + " " + checkpoint.offset() + (certain ? " certain" : " unknown"));
        // the chunks stay for the next checkpoint either way; only their fate at close differs
        if (!certain) {
            maybeCommitted.get(tp).addAll(chunks(checkpoint.data()));
        }
    }

    @Override
    public void close(TopicPartition tp, boolean lost) throws IOException {
        calls.add("close " + tp + (lost ? " lost" : ""));
        Set<String> keep = maybeCommitted.remove(tp);
        for (String chunk : unpublished.remove(tp)) {
            if (!keep.contains(chunk)) {
                Files.deleteIfExists(pending(tp, chunk)); // no commit can name it any more
            }
        }
        // a commit of unknown outcome may be the committed one: the next owner's open publishes or deletes its chunks
        buffers.remove(tp);
        next.remove(tp);
    }

    @Override
    public long bufferedBytes(TopicPartition tp) {
        List<String> lines = buffers.get(tp);
        return lines == null ? 0 : lines.size() * 16L;
    }

    /** Renames the named chunks visible; those already renamed are skipped. */
    private void publish(TopicPartition tp, String data) throws IOException {
        for (String chunk : chunks(data)) {
            Path pending = pending(tp, chunk);
            if (Files.exists(pending)) {
                Files.move(pending, pending.resolveSibling(chunk + ".txt"), StandardCopyOption.ATOMIC_MOVE);
            }
        }
    }

    private Path pending(TopicPartition tp, String chunk) {
        return dir.resolve(tp.toString()).resolve(chunk + ".pending");
    }

    /** The chunk names a checkpoint's data lists. */
    private static List<String> chunks(String data) {
        return data.isEmpty() ? List.of() : List.of(data.split(","));
    }

    /**
     * Offset → how many visible chunk lines hold it, over every partition's folder. Lists names only (a directory
     * stream with a glob reads no attributes), because the sink renames chunks while a test polls.
     */
    static Map<String, Integer> visible(Path dir) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        try (Stream<Path> partitions = Files.list(dir)) {
            for (Path partition : partitions.filter(Files::isDirectory).toList()) {
                try (var chunks = Files.newDirectoryStream(partition, "*.txt")) {
                    for (Path f : chunks) {
                        for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                            counts.merge(partition.getFileName() + "@" + line.split(" ")[0], 1, Integer::sum);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counts;
    }
}
