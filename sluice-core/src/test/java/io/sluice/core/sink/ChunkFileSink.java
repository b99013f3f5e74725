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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;

/**
 * A small exactly-once file sink that exercises the engine's sink contract: each checkpoint writes the records since
 * the last one into a hidden {@code .pending} chunk file (fsync'd), and names it in the commit; a committed
 * checkpoint renames it visible; {@link #open} finishes the rename a crash interrupted and deletes pending chunks no
 * commit names. Visible chunks then hold every offset exactly once. The storage module's sinks are the real thing.
 */
final class ChunkFileSink implements Sink {

    private final Path dir;
    private final Map<TopicPartition, List<String>> buffers = new ConcurrentHashMap<>();
    private final Map<TopicPartition, Long> next = new ConcurrentHashMap<>();
    final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());

    ChunkFileSink(Path dir) {
        this.dir = dir;
    }

    @Override
    public void open(TopicPartition tp, Uuid topicId, long committedOffset, Optional<String> committedData)
            throws IOException {
        calls.add("open " + tp + " " + committedOffset + " " + committedData.orElse("-"));
        Path partitionDir = Files.createDirectories(dir.resolve(tp.toString()));
        if (committedData.isPresent() && !committedData.get().isEmpty()) {
            publish(tp, committedData.get()); // idempotent: a crash may have come between commit and rename
        }
        try (Stream<Path> files = Files.list(partitionDir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".pending")).toList()) {
                Files.delete(f); // written for a checkpoint that was never committed
            }
        }
        buffers.put(tp, new ArrayList<>());
        next.put(tp, committedOffset);
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
        if (lines.isEmpty()) {
            return new SinkCheckpoint(end, "");
        }
        String chunk = "chunk-" + end;
        Path pending = dir.resolve(tp.toString()).resolve(chunk + ".pending");
        Files.write(pending, lines, StandardCharsets.UTF_8);
        try (FileChannel channel = FileChannel.open(pending, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        lines.clear();
        return new SinkCheckpoint(end, chunk);
    }

    @Override
    public void committed(TopicPartition tp, SinkCheckpoint checkpoint) throws IOException {
        calls.add("committed " + tp + " " + checkpoint.offset());
        if (!checkpoint.data().isEmpty()) {
            publish(tp, checkpoint.data());
        }
    }

    @Override
    public void notCommitted(TopicPartition tp, SinkCheckpoint checkpoint, boolean certain) throws IOException {
        calls.add("not committed " + tp + " " + checkpoint.offset() + (certain ? " certain" : " unknown"));
        if (certain && !checkpoint.data().isEmpty()) {
            Files.deleteIfExists(dir.resolve(tp.toString()).resolve(checkpoint.data() + ".pending"));
        }
    }

    @Override
    public void close(TopicPartition tp, boolean lost) {
        calls.add("close " + tp + (lost ? " lost" : ""));
        buffers.remove(tp);
    }

    @Override
    public long bufferedBytes(TopicPartition tp) {
        List<String> lines = buffers.get(tp);
        return lines == null ? 0 : lines.size() * 16L;
    }

    private void publish(TopicPartition tp, String chunk) throws IOException {
        Path pending = dir.resolve(tp.toString()).resolve(chunk + ".pending");
        if (Files.exists(pending)) {
            Files.move(pending, pending.resolveSibling(chunk + ".txt"), StandardCopyOption.ATOMIC_MOVE);
        }
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
